/**
 * The project's import graph, read from the sources with TypeScript's own pre-parser
 * (imports, re-exports and `import type` alike; a dynamic import names its module by a
 * string here or is not followed). test/unit/structure.test.ts holds the structure's
 * rules against it; run as a program it prints the summary:
 *
 *   npm run build --silent && node dist/test/helpers/import-graph.js [folder]
 *
 * A module is a file; a room is the folder a file sits in directly under the folder
 * looked at (`lib/notifications/queue.ts` is in room `notifications`), or the file itself
 * when it sits at the top. An upward import is an import between two rooms that import
 * each other, directly or through others: in a layered folder there are none.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";

export const ROOT = path.resolve(__dirname, "..", "..", ...(path.basename(path.resolve(__dirname, "..", "..")) === "dist" ? [".."] : []));

export interface Graph {
	/** Files, relative to the repository, with forward slashes. */
	files: string[];
	/** file -> the project files it imports. */
	imports: Map<string, string[]>;
}

const SKIP = new Set(["node_modules", "dist", "data", "coverage", ".git"]);

function walk(dir: string, out: string[]): void {
	for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
		if (SKIP.has(entry.name)) continue;
		const rel = dir ? `${dir}/${entry.name}` : entry.name;
		if (entry.isDirectory()) walk(rel, out);
		else if (entry.name.endsWith(".ts") && !entry.name.endsWith(".d.ts")) out.push(rel);
	}
}

function resolve(from: string, spec: string, known: Set<string>): string | null {
	if (!spec.startsWith(".")) return null;
	const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec)).replace(/\.js$/, "");
	for (const candidate of [`${base}.ts`, `${base}/index.ts`]) if (known.has(candidate)) return candidate;
	return null;
}

/** Every .ts file below the given top-level folders (and files), with its imports of project files. */
export function readGraph(tops: string[] = ["index.ts", "moleculer.config.ts", "lib", "services", "mixins", "middlewares", "harness", "bench"]): Graph {
	const files: string[] = [];
	for (const top of tops) {
		const abs = path.join(ROOT, top);
		if (!fs.existsSync(abs)) continue;
		if (fs.statSync(abs).isDirectory()) walk(top, files);
		else files.push(top);
	}
	const known = new Set(files);
	const imports = new Map<string, string[]>();
	for (const file of files) {
		const info = ts.preProcessFile(fs.readFileSync(path.join(ROOT, file), "utf8"), true, true);
		const targets = info.importedFiles.map(f => resolve(file, f.fileName, known)).filter((t): t is string => t !== null && t !== file);
		imports.set(file, [...new Set(targets)]);
	}
	return { files, imports };
}

/** Strongly connected components with more than one member (Tarjan), each sorted. */
export function circles(nodes: string[], edges: (n: string) => string[]): string[][] {
	let index = 0;
	const idx = new Map<string, number>();
	const low = new Map<string, number>();
	const stack: string[] = [];
	const onStack = new Set<string>();
	const out: string[][] = [];
	const visit = (v: string): void => {
		idx.set(v, index);
		low.set(v, index);
		index++;
		stack.push(v);
		onStack.add(v);
		for (const w of edges(v)) {
			if (!idx.has(w)) {
				visit(w);
				low.set(v, Math.min(low.get(v)!, low.get(w)!));
			} else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
		}
		if (low.get(v) === idx.get(v)) {
			const scc: string[] = [];
			let w: string;
			do {
				w = stack.pop()!;
				onStack.delete(w);
				scc.push(w);
			} while (w !== v);
			if (scc.length > 1) out.push(scc.sort());
		}
	};
	for (const n of nodes) if (!idx.has(n)) visit(n);
	return out.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The room of a file inside `folder`: its first path segment there (a folder, or the file itself). */
export function roomOf(folder: string, file: string): string | null {
	if (!file.startsWith(`${folder}/`)) return null;
	const rest = file.slice(folder.length + 1);
	const slash = rest.indexOf("/");
	return slash === -1 ? rest : rest.slice(0, slash);
}

export interface FolderReport {
	folder: string;
	modules: number;
	rooms: number;
	/** room -> rooms it imports. */
	roomImports: Map<string, Set<string>>;
	/** Imports between rooms that reach each other: "from -> to (file -> file)". */
	upward: string[];
	/** The same as arrows between rooms: "from -> to". */
	upwardArrows: string[];
	/** Circles of files inside the folder. */
	fileCircles: string[][];
	/** Circles of rooms. */
	roomCircles: string[][];
}

export function folderReport(g: Graph, folder: string): FolderReport {
	const inside = g.files.filter(f => f.startsWith(`${folder}/`));
	const roomImports = new Map<string, Set<string>>();
	for (const f of inside) {
		const from = roomOf(folder, f)!;
		const set = roomImports.get(from) ?? new Set<string>();
		roomImports.set(from, set);
		for (const t of g.imports.get(f) ?? []) {
			const to = roomOf(folder, t);
			if (to !== null && to !== from) set.add(to);
		}
	}
	const rooms = [...roomImports.keys()].sort();
	const roomCircles = circles(rooms, r => [...(roomImports.get(r) ?? [])]);
	const tied = new Map<string, number>();
	roomCircles.forEach((c, i) => c.forEach(r => tied.set(r, i)));
	const upward: string[] = [];
	for (const f of inside) {
		const from = roomOf(folder, f)!;
		for (const t of g.imports.get(f) ?? []) {
			const to = roomOf(folder, t);
			if (to === null || to === from) continue;
			if (tied.has(from) && tied.get(from) === tied.get(to)) upward.push(`${from} -> ${to} (${f} -> ${t})`);
		}
	}
	const upwardArrows = [...new Set(upward.map(u => u.slice(0, u.indexOf(" ("))))];
	const fileCircles = circles(inside, f => (g.imports.get(f) ?? []).filter(t => t.startsWith(`${folder}/`)));
	return { folder, modules: inside.length, rooms: rooms.length, roomImports, upward: upward.sort(), upwardArrows: upwardArrows.sort(), fileCircles, roomCircles };
}

/** Files outside `folder` that import a file of it other than its index. */
export function reachingInside(g: Graph, folder: string): string[] {
	const out: string[] = [];
	for (const [f, targets] of g.imports) {
		if (f.startsWith(`${folder}/`)) continue;
		for (const t of targets) if (t.startsWith(`${folder}/`) && t !== `${folder}/index.ts`) out.push(`${f} -> ${t}`);
	}
	return out.sort();
}

if (require.main === module) {
	const g = readGraph();
	const all = circles(g.files, f => g.imports.get(f) ?? []);
	process.stdout.write(`${g.files.length} modules, ${[...g.imports.values()].reduce((n, t) => n + t.length, 0)} imports, ${all.length} circles of files\n`);
	for (const c of all) process.stdout.write(`  circle: ${c.join(", ")}\n`);
	for (const folder of process.argv.slice(2).length ? process.argv.slice(2) : ["lib", "services"]) {
		const r = folderReport(g, folder);
		process.stdout.write(`${folder}/: ${r.modules} modules in ${r.rooms} rooms, ${r.upwardArrows.length} arrows inside circles of rooms (${r.upward.length} imports), ${r.roomCircles.length} circles of rooms, ${r.fileCircles.length} circles of files\n`);
		for (const c of r.roomCircles) process.stdout.write(`  rooms reaching each other: ${c.join(", ")}\n`);
		for (const u of r.upwardArrows) process.stdout.write(`  arrow: ${u}\n`);
		if (process.env.IMPORTS_VERBOSE) for (const u of r.upward) process.stdout.write(`  import: ${u}\n`);
	}
	const inside = reachingInside(g, "lib/notifications");
	process.stdout.write(`imports into lib/notifications/ past its index: ${inside.length}\n`);
}
