/**
 * The soak's memory breakdown: /proc/<pid>/smaps text sorted into kinds by mapping.
 */
import fs from "node:fs";
import { memoryByKind } from "../../bench/soak";

const mapping = (from: number, size: number, name: string, rssKb: number) =>
	[
		`${from.toString(16)}-${(from + size).toString(16)} rw-p 00000000 00:00 0 ${name}`.trimEnd(),
		`Size:           ${size / 1024} kB`,
		`Rss:            ${rssKb} kB`,
		`Pss:            ${rssKb} kB`
	].join("\n");

describe("the soak's memory by kind", () => {
	it("should sort V8 pages, malloc, the node binary and other files apart", () => {
		const KB = 1024;
		const text = [
			mapping(0x10000000, 256 * KB, "", 256),
			mapping(0x10040000, 256 * KB, "", 128),
			mapping(0x20000000, 5984 * KB, "", 5120),
			mapping(0x30000000, 2 * KB * KB, "[heap]", 1024),
			mapping(0x40000000, 40 * KB * KB, "/work/main/node_modules/node/bin/node", 30 * 1024),
			mapping(0x50000000, 512 * KB, "/usr/lib/x86_64-linux-gnu/libc.so.6", 512),
			mapping(0x60000000, 132 * KB, "", 64),
			mapping(0x70000000, 128 * KB, "[stack]", 32)
		].join("\n");
		const kinds = memoryByKind(text);
		expect(kinds["V8 heap pages"]).toBeCloseTo(384 / 1024);
		expect(kinds["malloc and large blocks"]).toBeCloseTo(6);
		expect(kinds["node binary"]).toBeCloseTo(30);
		expect(kinds["other files"]).toBeCloseTo(0.5);
		expect(kinds["other anonymous"]).toBeCloseTo(96 / 1024);
		expect(Object.keys(kinds).sort()).toEqual(["V8 heap pages", "malloc and large blocks", "node binary", "other anonymous", "other files"]);
	});

	it("should read the real smaps of this process, with the binary and a V8 heap in it", () => {
		const kinds = memoryByKind(fs.readFileSync("/proc/self/smaps", "utf8"));
		expect(kinds["node binary"]).toBeGreaterThan(1);
		expect(kinds["V8 heap pages"]).toBeGreaterThan(1);
	});
});
