/**
 * Resume uploads through the gateway's multipart route, in one process with the
 * embedded store: files under DATA_DIR/files, records in the store.
 */
import fs from "node:fs";
import path from "node:path";
import { request } from "node:http";
import type { ServiceSchema } from "moleculer";
import type { FileStorage } from "../../lib/files";
import { MAX_RESUME_BYTES } from "../../lib/resume";
import { http, newUser, runtime, startPlatform, type HttpResult, type Platform } from "../helpers/platform";
import { waitFor } from "../helpers/processes";
import { ACCEPTED, PDF, REFUSED, zip } from "../helpers/resumes";

const PROBLEM = "application/problem+json; charset=utf-8";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const NOBODY = "00000000-0000-4000-8000-000000000000";

function expectProblem(res: HttpResult, status: number, code: string) {
	expect({ status: res.status, code: res.body?.code }).toEqual({ status, code });
	expect(res.headers.get("content-type")).toBe(PROBLEM);
}

interface Part {
	name: string;
	value?: string;
	file?: Buffer;
	filename?: string;
	type?: string;
}

function form(...parts: Part[]): FormData {
	const f = new FormData();
	for (const part of parts) {
		if (part.file) f.append(part.name, new Blob([part.file], { type: part.type ?? "application/octet-stream" }), part.filename ?? "cv.pdf");
		else f.append(part.name, part.value ?? "");
	}
	return f;
}

const candidate = (id: string): Part => ({ name: "candidateId", value: id });
const resume = (file: Buffer, filename = "cv.pdf", type = "application/pdf"): Part => ({ name: "resume", file, filename, type });

describe("resumes", () => {
	let p: Platform;
	let ada: { token: string; id: string };
	let bob: { token: string; id: string };
	let admin: string;
	const events: unknown[] = [];

	async function register() {
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		expect(res.status).toBe(201);
		return { token: res.body.accessToken as string, id: res.body.actorId as string };
	}

	const upload = (token: string | undefined, ...parts: Part[]) => http(p.baseUrl, "POST", "/resumes", { token, body: form(...parts) });

	/** Everything under DATA_DIR/files, partial files included. */
	function filesOnDisk(): string[] {
		const dir = path.join(p.dataDir, "files");
		return fs.existsSync(dir) ? fs.readdirSync(dir).sort() : [];
	}

	const records = (candidateId: string) => runtime(p).store().collection("documents").count({ candidateId });

	/** Runs a request that must fail, and checks it left no file and no record. */
	async function expectNothingStored(candidateId: string, request: () => Promise<HttpResult>): Promise<HttpResult> {
		const before = filesOnDisk();
		const recordsBefore = await records(candidateId);
		const res = await request();
		expect(filesOnDisk()).toEqual(before);
		await expect(records(candidateId)).resolves.toBe(recordsBefore);
		return res;
	}

	beforeAll(async () => {
		p = await startPlatform({ BOOTSTRAP_ADMIN_EMAIL: "root@example.com", BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd" });
		p.broker.createService({
			name: "resume-events",
			events: { "documents.resumeStored": { handler: ctx => void events.push(ctx.params) } }
		} as ServiceSchema);
		ada = await register();
		bob = await register();
		const login = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "root@example.com", password: "Root-Passw0rd" } });
		admin = login.body.accessToken;
	});
	afterAll(() => p.stop());

	describe("upload and download", () => {
		it("should answer 201 with the metadata, store it, and serve the same bytes when the candidate uploads a PDF", async () => {
			const before = filesOnDisk();
			const res = await upload(ada.token, candidate(ada.id), resume(PDF, "Lebenslauf Ada.pdf", "application/octet-stream"));
			expect(res.status).toBe(201);
			expect(res.body).toEqual({
				documentId: expect.stringMatching(UUID),
				candidateId: ada.id,
				filename: "Lebenslauf Ada.pdf",
				contentType: "application/pdf",
				size: PDF.length,
				createdAt: expect.any(String)
			});
			expect(res.headers.get("location")).toBe(`/resumes/${res.body.documentId}`);
			const added = filesOnDisk().filter(f => !before.includes(f));
			expect(added).toHaveLength(1);
			expect(added[0]).toMatch(UUID);
			expect(fs.readFileSync(path.join(p.dataDir, "files", added[0]))).toEqual(PDF);

			const meta = await http(p.baseUrl, "GET", `/resumes/${res.body.documentId}`, { token: ada.token });
			expect(meta.status).toBe(200);
			expect(meta.body).toEqual(res.body);

			const download = await fetch(`${p.baseUrl}/resumes/${res.body.documentId}/content`, { headers: { authorization: `Bearer ${ada.token}` } });
			expect(download.status).toBe(200);
			expect(Buffer.from(await download.arrayBuffer())).toEqual(PDF);
			expect(download.headers.get("content-type")).toBe("application/pdf");
			expect(download.headers.get("content-disposition")).toBe(`attachment; filename="Lebenslauf Ada.pdf"; filename*=UTF-8''Lebenslauf%20Ada.pdf`);
			expect(download.headers.get("x-content-type-options")).toBe("nosniff");
			expect(download.headers.get("cache-control")).toBe("private, no-store");
		});

		it.each(ACCEPTED)("should store %s with the content type its bytes show when the client claims another", async (_label, bytes, filename, contentType) => {
			const res = await upload(ada.token, candidate(ada.id), resume(bytes, filename, "application/octet-stream"));
			expect(res.status).toBe(201);
			expect(res.body).toMatchObject({ contentType, filename, size: bytes.length });
			const download = await fetch(`${p.baseUrl}/resumes/${res.body.documentId}/content`, { headers: { authorization: `Bearer ${admin}` } });
			expect(Buffer.from(await download.arrayBuffer())).toEqual(bytes);
			expect(download.headers.get("content-type")).toBe(contentType === "text/plain" ? "text/plain; charset=utf-8" : contentType);
		});

		it("should emit documents.resumeStored when a resume is stored", async () => {
			const res = await upload(ada.token, candidate(ada.id), resume(PDF));
			expect(res.status).toBe(201);
			expect(events).toContainEqual({ documentId: res.body.documentId, candidateId: ada.id, size: PDF.length, contentType: "application/pdf" });
		});

		it("should accept exactly 10 MiB when the resume is at the limit", async () => {
			const bytes = Buffer.concat([PDF, Buffer.alloc(MAX_RESUME_BYTES - PDF.length, 0x20)]);
			const res = await upload(ada.token, candidate(ada.id), resume(bytes));
			expect(res.status).toBe(201);
			expect(res.body.size).toBe(MAX_RESUME_BYTES);
		});

		it("should keep the name as data and serve a safe Content-Disposition when the filename has a path and non-ASCII", async () => {
			const res = await upload(ada.token, candidate(ada.id), resume(Buffer.from("Ada\n"), "..\\..\\etc\\pass wörd\u202E.html", "text/html"));
			expect(res.status).toBe(201);
			expect(res.body).toMatchObject({ filename: "pass wörd.html.txt", contentType: "text/plain" });
			expect(filesOnDisk().every(f => UUID.test(f))).toBe(true);
			const download = await fetch(`${p.baseUrl}/resumes/${res.body.documentId}/content`, { headers: { authorization: `Bearer ${ada.token}` } });
			expect(download.headers.get("content-disposition")).toBe(`attachment; filename="pass w_rd.html.txt"; filename*=UTF-8''pass%20w%C3%B6rd.html.txt`);
		});
	});

	describe("who may upload and read", () => {
		it("should answer 201 when an administrator uploads for a candidate", async () => {
			const res = await upload(admin, candidate(bob.id), resume(PDF));
			expect(res.status).toBe(201);
			expect(res.body.candidateId).toBe(bob.id);
		});

		it("should answer 201 when a service uploads for a candidate", async () => {
			const token = await runtime(p).serviceTokens.get("auth");
			const res = await upload(token, candidate(bob.id), resume(PDF));
			expect(res.status).toBe(201);
		});

		it("should answer 401 and store nothing when there is no token", async () => {
			const res = await expectNothingStored(ada.id, () => upload(undefined, candidate(ada.id), resume(PDF)));
			expectProblem(res, 401, "UNAUTHORIZED");
		});

		it("should answer 403 FORBIDDEN and store nothing when a user uploads for another candidate", async () => {
			const res = await expectNothingStored(bob.id, () => upload(ada.token, candidate(bob.id), resume(PDF)));
			expectProblem(res, 403, "FORBIDDEN");
		});

		it("should answer 404 ACTOR_NOT_FOUND and store nothing when the candidate does not exist", async () => {
			const res = await expectNothingStored(NOBODY, () => upload(admin, candidate(NOBODY), resume(PDF)));
			expectProblem(res, 404, "ACTOR_NOT_FOUND");
		});

		it("should answer 404 DOCUMENT_NOT_FOUND when another user reads the resume, and 200 to administrators", async () => {
			const res = await upload(ada.token, candidate(ada.id), resume(PDF));
			const id = res.body.documentId;
			expectProblem(await http(p.baseUrl, "GET", `/resumes/${id}`, { token: bob.token }), 404, "DOCUMENT_NOT_FOUND");
			expectProblem(await http(p.baseUrl, "GET", `/resumes/${id}/content`, { token: bob.token }), 404, "DOCUMENT_NOT_FOUND");
			expect((await http(p.baseUrl, "GET", `/resumes/${id}`, { token: admin })).status).toBe(200);
			const service = await runtime(p).serviceTokens.get("auth");
			expect((await http(p.baseUrl, "GET", `/resumes/${id}`, { token: service })).status).toBe(200);
		});

		it("should answer 404 when the resume does not exist and 400 when the id is not a UUID", async () => {
			expectProblem(await http(p.baseUrl, "GET", `/resumes/${NOBODY}`, { token: admin }), 404, "DOCUMENT_NOT_FOUND");
			expectProblem(await http(p.baseUrl, "GET", `/resumes/${NOBODY}/content`, { token: admin }), 404, "DOCUMENT_NOT_FOUND");
			expectProblem(await http(p.baseUrl, "GET", "/resumes/not-a-uuid", { token: admin }), 400, "VALIDATION_ERROR");
		});

		it("should answer 401 when reading without a token", async () => {
			expectProblem(await http(p.baseUrl, "GET", `/resumes/${NOBODY}`), 401, "UNAUTHORIZED");
			expectProblem(await http(p.baseUrl, "GET", `/resumes/${NOBODY}/content`), 401, "UNAUTHORIZED");
		});
	});

	describe("refused uploads leave nothing behind", () => {
		it("should answer 413 PAYLOAD_TOO_LARGE and store nothing when the resume is 10 MiB + 1 byte", async () => {
			const bytes = Buffer.concat([PDF, Buffer.alloc(MAX_RESUME_BYTES + 1 - PDF.length, 0x20)]);
			const res = await expectNothingStored(ada.id, () => upload(ada.token, candidate(ada.id), resume(bytes)));
			expectProblem(res, 413, "PAYLOAD_TOO_LARGE");
		});

		it("should answer 413 and store nothing when the resume is far over the limit", async () => {
			const bytes = Buffer.concat([PDF, Buffer.alloc(3 * MAX_RESUME_BYTES, 0x20)]);
			const res = await expectNothingStored(ada.id, () => upload(ada.token, candidate(ada.id), resume(bytes)));
			expectProblem(res, 413, "PAYLOAD_TOO_LARGE");
		});

		it.each(REFUSED)("should answer 415 UNSUPPORTED_MEDIA_TYPE and store nothing when the resume is %s named cv.pdf", async (_label, bytes) => {
			const res = await expectNothingStored(ada.id, () => upload(ada.token, candidate(ada.id), resume(bytes, "cv.pdf", "application/pdf")));
			expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
		});

		it("should answer 415 and store nothing when a large file shows its type late", async () => {
			// A DOCX-looking ZIP whose Word part never comes: refused only at its end.
			const bytes = zip({ "[Content_Types].xml": "<Types/>", "padding.bin": "x".repeat(2 * 1024 * 1024) });
			const res = await expectNothingStored(ada.id, () => upload(ada.token, candidate(ada.id), resume(bytes, "cv.docx")));
			expectProblem(res, 415, "UNSUPPORTED_MEDIA_TYPE");
		});

		it.each([
			["the resume part is missing", (id: string) => [candidate(id)], "resume"],
			["resume is a text field, not a file", (id: string) => [candidate(id), { name: "resume", value: "%PDF-1.7" }], "resume"],
			["the file part has another name", (id: string) => [candidate(id), { name: "cv", file: PDF }], "resume"],
			["candidateId is missing", () => [resume(PDF)], "candidateId"],
			["candidateId comes after the file", (id: string) => [resume(PDF), candidate(id)], "candidateId"],
			["candidateId is not a UUID", () => [candidate("ada"), resume(PDF)], "candidateId"],
			["the file is empty", (id: string) => [candidate(id), resume(Buffer.alloc(0))], "resume"]
		] as [string, (id: string) => Part[], string][])("should answer 400 VALIDATION_ERROR and store nothing when %s", async (_label, parts, field) => {
			const res = await expectNothingStored(ada.id, () => upload(ada.token, ...parts(ada.id)));
			expectProblem(res, 400, "VALIDATION_ERROR");
			expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
		});

		it("should answer 400 when the multipart body has no parts", async () => {
			const empty = "--b0undary--\r\n";
			const res = await expectNothingStored(ada.id, () =>
				http(p.baseUrl, "POST", "/resumes", { token: ada.token, body: empty, headers: { "content-type": "multipart/form-data; boundary=b0undary" } })
			);
			expectProblem(res, 400, "VALIDATION_ERROR");
		});

		it.each([
			["application/json", 415, "UNSUPPORTED_MEDIA_TYPE"],
			["multipart/form-data", 400, "VALIDATION_ERROR"]
		])("should answer %s with %i when the body is not usable multipart", async (type, status, code) => {
			const res = await http(p.baseUrl, "POST", "/resumes", { token: ada.token, body: "{}", headers: { "content-type": type } });
			expectProblem(res, status, code);
		});
	});

});

describe("resume uploads that break off", () => {
	let p: Platform;
	let ada: { token: string; id: string };
	let put: jest.SpiedFunction<FileStorage["put"]>;
	const BOUNDARY = "b0undary";
	const head = (candidateId: string) =>
		Buffer.from(
			`--${BOUNDARY}\r\nContent-Disposition: form-data; name="candidateId"\r\n\r\n${candidateId}\r\n` +
				`--${BOUNDARY}\r\nContent-Disposition: form-data; name="resume"; filename="cv.pdf"\r\nContent-Type: application/pdf\r\n\r\n`
		);
	const filesDir = () => path.join(p.dataDir, "files");
	const filesOnDisk = () => (fs.existsSync(filesDir()) ? fs.readdirSync(filesDir()) : []);

	function rawUpload(contentLength?: number) {
		const req = request({
			host: "127.0.0.1",
			port: new URL(p.baseUrl).port,
			method: "POST",
			path: "/resumes",
			headers: {
				authorization: `Bearer ${ada.token}`,
				"content-type": `multipart/form-data; boundary=${BOUNDARY}`,
				...(contentLength ? { "content-length": String(contentLength) } : {})
			}
		});
		const response = new Promise<number>((resolve, reject) => {
			req.on("response", res => {
				res.resume();
				resolve(res.statusCode!);
			});
			req.on("error", reject);
		});
		return { req, response };
	}

	/** The upload's own outcome: the gateway may answer before the documents service has cleaned up. */
	async function storageOutcome(): Promise<unknown> {
		await waitFor("the upload to reach file storage", async () => put.mock.results.length === 1, 5000);
		return put.mock.results[0].value;
	}

	beforeAll(async () => {
		p = await startPlatform();
		// A stalled part is given up after this pause; short, so the test need not wait the default 30 s.
		(p.broker.getLocalService("documents") as unknown as { settings: { uploadIdleMs: number } }).settings.uploadIdleMs = 1000;
		const res = await http(p.baseUrl, "POST", "/auth/register", { json: newUser() });
		ada = { token: res.body.accessToken, id: res.body.actorId };
	});
	// Observed, not replaced: the real storage still runs.
	beforeEach(() => {
		put = jest.spyOn(runtime(p).files(), "put");
	});
	afterEach(() => put.mockRestore());
	afterAll(() => p.stop());

	async function expectNothingStored() {
		expect(filesOnDisk()).toEqual([]);
		await expect(runtime(p).store().collection("documents").count({ candidateId: ada.id })).resolves.toBe(0);
	}

	it("should answer 400 and store nothing when the body ends inside the file part before the service reads it", async () => {
		const res = await http(p.baseUrl, "POST", "/resumes", {
			token: ada.token,
			body: Buffer.concat([head(ada.id), PDF]),
			headers: { "content-type": `multipart/form-data; boundary=${BOUNDARY}` }
		});
		expectProblem(res, 400, "VALIDATION_ERROR");
		await expect(storageOutcome()).rejects.toMatchObject({ code: 400, type: "VALIDATION_ERROR" });
		await expectNothingStored();
	});

	it("should answer 400 and store nothing when the body ends inside the file part while it is being stored", async () => {
		const { req, response } = rawUpload();
		req.write(Buffer.concat([head(ada.id), PDF, Buffer.alloc(256 * 1024, 0x20)]));
		await waitFor("the upload to reach file storage", async () => filesOnDisk().some(f => f.endsWith(".part")), 5000);
		req.end();
		await expect(response).resolves.toBe(400);
		await expect(storageOutcome()).rejects.toMatchObject({ code: 400, type: "VALIDATION_ERROR" });
		await expectNothingStored();
	});

	it("should remove the partial file and store no record when the client stalls and disconnects mid-upload", async () => {
		const { req, response } = rawUpload(MAX_RESUME_BYTES);
		response.catch(() => undefined);
		req.write(Buffer.concat([head(ada.id), PDF, Buffer.alloc(256 * 1024, 0x20)]));
		await waitFor("the upload to reach file storage", async () => filesOnDisk().some(f => f.endsWith(".part")), 5000);
		req.destroy();
		await expect(storageOutcome()).rejects.toMatchObject({ code: 400, type: "VALIDATION_ERROR" });
		await expectNothingStored();
	});
});
