/**
 * What a newcomer sees: `npm start` at a terminal prints colored one-line logs
 * (pino-pretty), a pipe gets one JSON object a line, and LOG_FORMAT forces either.
 * The terminal is a real pseudo-terminal (util-linux `script`), the platform the
 * compiled dist/index.js.
 */
import { spawn } from "node:child_process";
import { ENTRY, freePort, waitFor } from "../helpers/processes";
import { tempDir } from "../helpers/platform";

const STARTED = /ServiceBroker with \d+ service\(s\) started/;
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;]*m/g;

async function firstLines(env: Record<string, string>, tty: boolean): Promise<string> {
	const port = await freePort();
	const childEnv = { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "/tmp", PORT: String(port), DATA_DIR: tempDir(), LOG_LEVEL: "info", ...env };
	const command = `exec '${process.execPath}' '${ENTRY}'`;
	const child = tty
		? spawn("script", ["-qfec", command, "/dev/null"], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] })
		: spawn(process.execPath, [ENTRY], { env: childEnv, stdio: ["ignore", "pipe", "pipe"] });
	let out = "";
	child.stdout!.on("data", (b: Buffer) => (out += b.toString()));
	child.stderr!.on("data", (b: Buffer) => (out += b.toString()));
	const exited = new Promise(resolve => child.on("exit", resolve));
	try {
		await waitFor("the broker's start line", async () => STARTED.test(out.replace(ANSI, "")), 30000);
	} finally {
		child.kill("SIGTERM");
		await exited;
	}
	return out;
}

const lines = (out: string) => out.split(/\r?\n/).filter(l => l.trim() !== "");

describe("development logs", () => {
	it("should print colored one-line logs with the module when stdout is a terminal", async () => {
		const out = await firstLines({}, true);
		expect(out).toMatch(ANSI);
		const started = lines(out.replace(ANSI, "")).find(l => STARTED.test(l))!;
		expect(started).toMatch(/^\[\d\d:\d\d:\d\d\.\d{3}\] INFO: \[broker\] (✔ )?ServiceBroker with \d+ service\(s\) started/);
		expect(() => JSON.parse(started)).toThrow();
	});

	it("should print one JSON object a line when stdout is a pipe", async () => {
		const out = await firstLines({}, false);
		expect(out).not.toMatch(ANSI);
		const entries = lines(out).map(l => JSON.parse(l) as { level: number; msg: string; mod?: string });
		expect(entries.find(e => STARTED.test(e.msg))).toMatchObject({ level: 30, mod: "broker" });
	});

	it("should follow LOG_FORMAT over the terminal check", async () => {
		const pretty = await firstLines({ LOG_FORMAT: "pretty" }, false);
		expect(lines(pretty.replace(ANSI, "")).some(l => /INFO: \[broker\] ServiceBroker/.test(l))).toBe(true);
		const json = await firstLines({ LOG_FORMAT: "json" }, true);
		expect(json).not.toMatch(ANSI);
		// `script` reports its own end when the platform is stopped; every other line is the platform's JSON.
		const own = lines(json).filter(l => !/^Session terminated/.test(l));
		expect(own.length).toBeGreaterThan(3);
		expect(own.map(l => typeof (JSON.parse(l) as { level?: unknown }).level)).toEqual(own.map(() => "number"));
	});
});
