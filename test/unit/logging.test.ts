/**
 * Log lines as pino writes them with the platform's hook, serializers and redaction.
 */
import { Writable } from "node:stream";
import { pino } from "pino";
import { Errors } from "moleculer";
import { errorFields, mergeLogArguments } from "../../lib/process/logging";
import { REDACTED_PATHS } from "../../moleculer.config";

function logger() {
	const lines: Record<string, unknown>[] = [];
	const sink = new Writable({
		write(chunk, _enc, done) {
			lines.push(JSON.parse(String(chunk)));
			done();
		}
	});
	const log = pino(
		{ level: "trace", redact: { paths: REDACTED_PATHS, censor: "[redacted]" }, hooks: { logMethod: mergeLogArguments }, serializers: { err: errorFields, error: errorFields } },
		sink
	);
	// Moleculer's logger calls pino this way: logger[level](...args).
	const call = (level: "debug" | "info" | "warn", ...args: unknown[]) => (log[level] as (...a: unknown[]) => void)(...args);
	return { log, call, lines };
}

describe("log lines", () => {
	it("should keep the fields of a console-style call, which pino alone drops", () => {
		const { call, lines } = logger();
		call("warn", "Something happened", { requestId: "r1", count: 2 });
		expect(lines[0]).toMatchObject({ msg: "Something happened", requestId: "r1", count: 2 });
	});

	it("should put an error under err with its name, message, code and type, and nothing else", () => {
		const { call, lines } = logger();
		const err = new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", [{ field: "password", actual: "hunter2-secret" }]);
		call("debug", "The 'auth.login' request is rejected.", { requestID: "r2" }, err);
		expect(lines[0]).toMatchObject({ requestID: "r2", err: { type: "ValidationError", message: "Parameters validation error!", code: 422, errType: "VALIDATION_ERROR" } });
		expect(JSON.stringify(lines[0])).not.toContain("hunter2-secret");
	});

	it("should redact secrets at the top of a line and one level down", () => {
		const { call, lines } = logger();
		call("info", "Call", { password: "p1", params: { refreshToken: "r1", token: "t1" }, meta: { authToken: "a1" }, headers: { authorization: "Bearer x" } });
		const line = JSON.stringify(lines[0]);
		for (const secret of ["p1", "r1", "t1", "a1", "Bearer x"]) expect(line).not.toContain(secret);
	});

	it("should drop extra text arguments, which redaction cannot see into", () => {
		const { call, lines } = logger();
		call("debug", "Content:", '{"meta":{"authToken":"leaked"}}');
		expect(lines[0]).toEqual(expect.objectContaining({ msg: "Content:" }));
		expect(JSON.stringify(lines[0])).not.toContain("leaked");
	});

	it("should leave a pino-style call as it is", () => {
		const { log, lines } = logger();
		log.info({ a: 1 }, "classic");
		expect(lines[0]).toMatchObject({ a: 1, msg: "classic" });
	});

	it("should follow an error's causes", () => {
		expect(errorFields(new Error("outer", { cause: new TypeError("inner") }))).toMatchObject({ message: "outer", cause: { type: "TypeError", message: "inner" } });
	});
});
