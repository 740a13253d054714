/**
 * The structure's rules, read from the imports (test/helpers/import-graph.ts): the
 * notification domain has one public surface, the transports and the outbound
 * webhooks only look down to the shared vocabulary, notifications knows nothing of
 * accounts, and nothing in the production code imports itself in a circle. Tests may
 * reach into a module to test it directly; the rules hold for everything else.
 */
import { circles, folderReport, reachingInside, readGraph, type Graph } from "../helpers/import-graph";

const graph = readGraph();

/** "from -> to" for every import from a file under one of `from` into a file under one of `to`. */
function importsBetween(g: Graph, from: string[], to: string[]): string[] {
	const under = (f: string, folders: string[]) => folders.some(d => f.startsWith(`${d}/`));
	return [...g.imports].flatMap(([f, targets]) => (under(f, from) ? targets.filter(t => under(t, to)).map(t => `${f} -> ${t}`) : []));
}

describe("the structure", () => {
	it("should read the project's modules and their imports", () => {
		expect(graph.files.length).toBeGreaterThan(150);
		expect(graph.imports.get("services/dispatcher.service.ts")).toContain("lib/notifications/index.ts");
	});

	it("should import lib/notifications only through its index from outside the folder", () => {
		expect(reachingInside(graph, "lib/notifications")).toEqual([]);
	});

	it("should have no circle of imports between files", () => {
		expect(circles(graph.files, f => graph.imports.get(f) ?? [])).toEqual([]);
	});

	it("should have no circle between the rooms of lib/ (no import runs back up)", () => {
		const lib = folderReport(graph, "lib");
		expect(lib.roomCircles).toEqual([]);
		expect(lib.upward).toEqual([]);
	});

	it("should keep notifications free of accounts (accounts registers what notifications needs)", () => {
		expect(importsBetween(graph, ["lib/notifications"], ["lib/accounts"])).toEqual([]);
	});

	it("should let transports, adapters and outbound webhooks import only downward", () => {
		const lower = ["lib/email", "lib/sms", "lib/push", "lib/channels", "lib/inbox", "lib/sns", "lib/outbound", "lib/unsubscribe", "lib/delivery"];
		expect(importsBetween(graph, lower, ["lib/notifications", "lib/accounts", "lib/social", "lib/idp"])).toEqual([]);
	});

	it("should keep the shared vocabulary below everything but the errors", () => {
		const outside = (graph.imports.get("lib/delivery/index.ts") ?? []).concat(...["model", "outcomes", "senders"].map(f => graph.imports.get(`lib/delivery/${f}.ts`) ?? []));
		expect(outside.filter(t => !t.startsWith("lib/delivery/") && !t.startsWith("lib/errors/"))).toEqual([]);
	});
});
