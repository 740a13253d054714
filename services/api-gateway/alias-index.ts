/**
 * Which of moleculer-web's aliases a request can match, found by its method and the
 * shape of its path instead of trying every alias's regular expression in turn.
 *
 * moleculer-web's `resolveAlias` runs the aliases' patterns one after another in
 * their order and takes the first that matches. With this gateway's sixty aliases
 * a request tried about twenty patterns before its own (about a twentieth of the
 * work of an authenticated read). An alias whose path begins with a fixed segment can only
 * match a URL that begins with the same segment (moleculer-web's patterns ignore
 * case), so the index keeps, for each method and first segment, the aliases that
 * could match, in moleculer-web's order. The first of them that matches is the
 * alias moleculer-web's loop would have found: the answer is the same, with fewer
 * patterns tried. The number of segments narrows it further: a plain ":name"
 * parameter never spans a "/". Aliases whose first segment is a parameter, whose
 * parameters are optional, repeated or patterned, or that take any method ("*") stay
 * in every list they could match.
 */

/** A parameter of an alias's path, as moleculer-web's Alias keeps it (path-to-regexp's key). */
interface PathKey {
	name: string | number;
	repeat?: boolean;
	delimiter?: string;
}

/** The part of moleculer-web's Alias that the index reads. */
export interface IndexedAlias {
	method: string;
	fullPath: string;
	re: RegExp;
	keys: PathKey[];
	match(url: string): false | Record<string, unknown>;
}

/**
 * moleculer-web's Alias.match. Its decodeURIComponent of every parameter is a call
 * into the engine's runtime that costs more than the rest of the match (a twentieth of
 * an authenticated read); on a URL without a "%" there is nothing to decode, and a
 * parameter is its text as it stands (decodeURIComponent changes only %-escapes). A URL
 * with one goes to moleculer-web's own match, which also refuses a malformed escape.
 */
export function matchAlias(alias: IndexedAlias, url: string): false | Record<string, unknown> {
	if (url.includes("%")) return alias.match(url);
	const m = alias.re.exec(url);
	if (!m) return false;
	const params: Record<string, unknown> = {};
	for (let i = 0; i < alias.keys.length; i++) {
		const key = alias.keys[i]!;
		const param = m[i + 1];
		if (!param) continue;
		params[key.name] = key.repeat ? param.split(key.delimiter!) : param;
	}
	return params;
}

export interface ResolvedAlias<A extends IndexedAlias> {
	alias: A;
	params: Record<string, unknown>;
}

/** A path's first segment (lower-cased) and its number of segments, where the alias's pattern fixes them. */
export interface PathShape {
	/** undefined: a parameter or a pattern, which matches any first segment. */
	first: string | undefined;
	/** undefined: a parameter that may be left out, repeated or given its own pattern, which matches any number of segments. */
	count: number | undefined;
}

/** Parameters of moleculer-web's path-to-regexp that never span a "/" or go missing are plain ":name". */
const PLAIN_PARAM = /^:[A-Za-z0-9_]+$/;

export function aliasShape(fullPath: string): PathShape {
	const segments = fullPath.split("/").slice(1);
	const first = segments[0]!;
	const literal = (seg: string) => !/[:*?+()]/.test(seg);
	return {
		first: literal(first) ? first.toLowerCase() : undefined,
		count: segments.every(seg => literal(seg) || PLAIN_PARAM.test(seg)) ? segments.length : undefined
	};
}

/** A URL's shape as moleculer-web hands it over (no query; one trailing "/" does not count). */
export function urlShape(url: string): { first: string; count: number } {
	const path = url.length > 1 && url.endsWith("/") ? url.slice(0, -1) : url;
	const end = path.indexOf("/", 1);
	let count = 1;
	for (let i = end; i !== -1; i = path.indexOf("/", i + 1)) count++;
	return { first: (end === -1 ? path.slice(1) : path.slice(1, end)).toLowerCase(), count };
}

interface Entry<A> {
	alias: A;
	method: string;
	shape: PathShape;
}

function fits<A>(e: Entry<A>, method: string, first: string, count: number): boolean {
	return (e.method === "*" || e.method === method) && (e.shape.first ?? first) === first && (e.shape.count ?? count) === count;
}

export class AliasIndex<A extends IndexedAlias> {
	/** Method, then first segment, then number of segments -> the aliases that can match such a URL, in moleculer-web's order. */
	private readonly byShape = new Map<string, Map<string, (readonly A[])[]>>();
	/** Aliases that match more than one shape or any method: the candidates of a shape no fixed alias has. */
	private readonly loose: readonly Entry<A>[];

	/** `aliases` in moleculer-web's order; the index is a snapshot of them. */
	constructor(readonly aliases: readonly A[]) {
		const entries = aliases.map(alias => ({ alias, method: alias.method, shape: aliasShape(alias.fullPath) }));
		for (const e of entries) {
			const { first, count } = e.shape;
			if (e.method === "*" || first === undefined || count === undefined) continue;
			let byFirst = this.byShape.get(e.method);
			if (!byFirst) this.byShape.set(e.method, (byFirst = new Map()));
			let byCount = byFirst.get(first);
			if (!byCount) byFirst.set(first, (byCount = []));
			byCount[count] ??= entries.filter(c => fits(c, e.method, first, count)).map(c => c.alias);
		}
		this.loose = entries.filter(e => e.method === "*" || e.shape.first === undefined || e.shape.count === undefined);
	}

	/** What moleculer-web's resolveAlias(url, method) answers: the first alias that matches, or false. */
	resolve(url: string, method: string): ResolvedAlias<A> | false {
		const { first, count } = urlShape(url);
		// Nested maps rather than one "METHOD count first" key: no string is built per request.
		const candidates = this.byShape.get(method)?.get(first)?.[count] ?? this.loose.filter(e => fits(e, method, first, count)).map(e => e.alias);
		for (const alias of candidates) {
			const params = matchAlias(alias, url);
			if (params) return { alias, params };
		}
		return false;
	}
}

/**
 * moleculer-web logs each request's alias with `logger.debug("  Alias:", alias.toString())`,
 * and the argument is built whether debug logging is on or not: a padded, coloured
 * string per request (about 1k instructions of an authenticated GET). An alias does
 * not change once made, so each one's description is made once, here, and kept.
 */
export function describeOnce(aliases: readonly object[]): void {
	for (const alias of aliases) {
		if (Object.hasOwn(alias, "toString")) continue;
		const text = String(alias);
		Object.defineProperty(alias, "toString", { value: () => text, configurable: true, writable: true });
	}
}
