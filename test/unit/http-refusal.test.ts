/**
 * What a client is told when Node's HTTP parser refuses its request. The corpus
 * (test/integration/bad-input.test.ts) sends such requests over real sockets; the
 * request timeout cannot be reached quickly there (Node checks it every 30 s), so
 * each case is also driven here through a stream standing in for the socket.
 */
import { PassThrough } from "node:stream";
import { answerClientError } from "../../lib/errors/http-refusal";
import { parseResponse } from "../helpers/raw-http";

async function answer(code: string | undefined) {
	const socket = new PassThrough();
	const chunks: Buffer[] = [];
	socket.on("data", c => chunks.push(c));
	const ended = new Promise(r => socket.on("end", r));
	answerClientError(Object.assign(new Error("refused"), { code }), socket);
	await ended;
	return parseResponse(Buffer.concat(chunks));
}

describe("answerClientError", () => {
	it.each([
		["malformed HTTP", "HPE_INVALID_HEADER_TOKEN", 400, "VALIDATION_ERROR"],
		["oversized headers", "HPE_HEADER_OVERFLOW", 431, "PAYLOAD_TOO_LARGE"],
		["a request that arrives too slowly", "ERR_HTTP_REQUEST_TIMEOUT", 408, "REQUEST_TIMEOUT"]
	])("should answer %s with a problem document", async (_label, code, status, problemCode) => {
		const res = await answer(code);
		expect(res.status).toBe(status);
		expect(res.headers.get("content-type")).toEqual(["application/problem+json; charset=utf-8"]);
		expect(res.headers.get("x-content-type-options")).toEqual(["nosniff"]);
		const problem = JSON.parse(res.body);
		expect(problem).toMatchObject({ status, code: problemCode, requestId: res.headers.get("x-request-id")![0] });
	});

	it("should only close a connection the client already reset", () => {
		const socket = new PassThrough();
		const written: Buffer[] = [];
		socket.on("data", c => written.push(c));
		answerClientError(Object.assign(new Error("reset"), { code: "ECONNRESET" }), socket);
		expect(socket.destroyed).toBe(true);
		expect(written).toEqual([]);
	});
});
