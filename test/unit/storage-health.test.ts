/**
 * Which errors are storage faults, and StorageHealth's rules: the first fault of a run
 * is logged once (with a rollback's failure beside it), readiness probes with a real
 * write while failing, and the first probe that succeeds ends the fault.
 */
import { Errors } from "moleculer";
import { toProblem } from "../../lib/errors/problem";
import { isStorageFault, storageUnavailable } from "../../lib/errors/storage-faults";
import { StorageHealth } from "../../lib/process/storage-health";

const errno = (code: string) => Object.assign(new Error(code), { code });
const sqlite = (errcode: number) => Object.assign(new Error("sqlite"), { code: "ERR_SQLITE_ERROR", errcode });
const mongo = (code: number, message = "m") => Object.assign(new Error(message), { name: "MongoServerError", code });

test.each([
	["ENOSPC", true, errno("ENOSPC")],
	["EDQUOT", true, errno("EDQUOT")],
	["EROFS", true, errno("EROFS")],
	["SQLITE_FULL", true, sqlite(13)],
	["SQLITE_READONLY", true, sqlite(8)],
	["SQLITE_IOERR_WRITE (extended)", true, sqlite(10 | (3 << 8))],
	["MongoDB OutOfDiskSpace", true, mongo(14031)],
	["MongoDB 'No space left on device'", true, mongo(1, "WiredTiger error: No space left on device")],
	["SQLITE_CONSTRAINT", false, sqlite(19)],
	["SQLITE_BUSY", false, sqlite(5)],
	["ECONNREFUSED", false, errno("ECONNREFUSED")],
	["a Moleculer client error", false, new Errors.MoleculerClientError("x", 400, "VALIDATION_ERROR")],
	["a MongoDB duplicate key", false, mongo(11000)],
	["nothing", false, undefined]
])("%s is a storage fault: %s", (_name, expected, err) => {
	expect(isStorageFault(err)).toBe(expected);
});

test("STORAGE_UNAVAILABLE is a 503 problem with Retry-After, also for a raw storage error", () => {
	for (const err of [storageUnavailable(), errno("ENOSPC")]) {
		const { problem, headers, serverSide } = toProblem(err, "req-1");
		expect(problem).toMatchObject({ status: 503, code: "STORAGE_UNAVAILABLE", requestId: "req-1" });
		expect(Number(headers["Retry-After"])).toBeGreaterThan(0);
		// Logged once where it happened, not once per refused request.
		expect(serverSide).toBe(false);
	}
});

describe("StorageHealth", () => {
	function logger() {
		return { error: jest.fn(), info: jest.fn() };
	}

	test("logs the first fault once, with the rollback's failure beside it", () => {
		const log = logger();
		const health = new StorageHealth(() => log);
		const first = Object.assign(sqlite(13), { rollbackError: "cannot rollback" });
		health.failed(first, "notifications.create");
		health.failed(errno("ENOSPC"), "documents.upload");
		expect(health.failing).toBe(true);
		expect(log.error).toHaveBeenCalledTimes(1);
		expect(log.error.mock.calls[0][0]).toContain("notifications.create");
		expect(log.error.mock.calls[0][1]).toEqual({ err: first, rollbackError: "cannot rollback" });
	});

	test("while failing, readiness probes every storage; the first full success ends the fault", async () => {
		const log = logger();
		const health = new StorageHealth(() => log);
		const store = { probeWrite: jest.fn().mockRejectedValueOnce(errno("ENOSPC")).mockResolvedValue(undefined) };
		const files = { probeWrite: jest.fn().mockResolvedValue(undefined) };

		await health.check([store, files]);
		expect(store.probeWrite).not.toHaveBeenCalled();

		health.failed(errno("ENOSPC"), "store");
		await expect(health.check([store, files])).rejects.toMatchObject({ code: "ENOSPC" });
		expect(health.failing).toBe(true);
		await health.check([store, files]);
		expect(files.probeWrite).toHaveBeenCalledTimes(1);
		expect(health.failing).toBe(false);
		expect(log.info).toHaveBeenCalledTimes(1);

		// A new fault after recovery is logged again.
		health.failed(errno("ENOSPC"), "store");
		expect(log.error).toHaveBeenCalledTimes(2);
	});
});
