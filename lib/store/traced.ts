/**
 * The store with a span for every write made inside a traced call: a child of the
 * current span (lib/tracing/scope.ts), named and tagged as OpenTelemetry's database
 * conventions say, with the system, the operation and the collection, never a filter,
 * an update or a document (they hold addresses and token hashes). Reads are not
 * traced. Used only when tracing is on (lib/store/index.ts): otherwise the store is
 * the backend itself, with nothing in between.
 */
import type { Span } from "moleculer";
import type { BatchGroup, Collection, Doc, Filter, FindOptions, Sort, Store, Update } from "./types";
import type { SpanMeta } from "../tracing/exporter";
import { childSpan, currentLinks, currentSpan, within } from "../tracing/scope";

function dbSpan(system: string, op: string, collection: string | undefined, tags: Record<string, string | number> = {}): Span | null {
	return childSpan(collection ? `${op} ${collection}` : op, {
		type: "db",
		tags: { "db.system.name": system, "db.operation.name": op, ...(collection ? { "db.collection.name": collection } : {}), ...tags }
	});
}

class TracedCollection<T extends Doc> implements Collection<T> {
	constructor(private readonly inner: Collection<T>, private readonly system: string, private readonly name: string) {}

	private write<R>(op: string, fn: () => Promise<R>): Promise<R> {
		const span = dbSpan(this.system, op, this.name);
		return span ? within(span, fn) : fn();
	}

	insert(doc: T): Promise<T> {
		return this.write("insert", () => this.inner.insert(doc));
	}

	get(id: string): Promise<T | null> {
		return this.inner.get(id);
	}

	findOne(filter: Filter, opts?: FindOptions): Promise<T | null> {
		return this.inner.findOne(filter, opts);
	}

	find(filter: Filter, opts?: FindOptions): Promise<T[]> {
		return this.inner.find(filter, opts);
	}

	count(filter: Filter): Promise<number> {
		return this.inner.count(filter);
	}

	findOneAndUpdate(filter: Filter, update: Update, opts?: { sort?: Sort }): Promise<T | null> {
		return this.write("findOneAndUpdate", () => this.inner.findOneAndUpdate(filter, update, opts));
	}

	claimMany(filter: Filter, update: Update, opts: { sort?: Sort; limit: number }): Promise<T[]> {
		return this.write("claimMany", () => this.inner.claimMany(filter, update, opts));
	}

	updateMany(filter: Filter, update: Update): Promise<number> {
		return this.write("updateMany", () => this.inner.updateMany(filter, update));
	}

	deleteMany(filter: Filter): Promise<number> {
		return this.write("deleteMany", () => this.inner.deleteMany(filter));
	}
}

export class TracedStore implements Store {
	private readonly collections = new Map<string, Collection<Doc>>();

	constructor(readonly inner: Store) {}

	get kind(): Store["kind"] {
		return this.inner.kind;
	}

	collection<T extends Doc>(name: string): Collection<T> {
		let c = this.collections.get(name);
		if (!c) {
			c = new TracedCollection(this.inner.collection<Doc>(name), this.inner.kind, name);
			this.collections.set(name, c);
		}
		return c as Collection<T>;
	}

	/** A shared batch (group commit) is a child of its first request's span and links to the others' (lib/tracing/scope.ts, BatchScope). */
	batch(groups: BatchGroup[]): Promise<boolean[]> {
		if (!currentSpan()?.sampled) return this.inner.batch(groups);
		const ops = groups.flat();
		const names = new Set(ops.map(op => op.collection));
		const span = dbSpan(this.inner.kind, "batch", names.size === 1 ? [...names][0] : undefined, { "db.operation.batch.size": ops.length })!;
		const links = currentLinks();
		if (links.length > 0) (span.meta as SpanMeta).links = links;
		return within(span, () => this.inner.batch(groups));
	}

	ping(): Promise<void> {
		return this.inner.ping();
	}

	probeWrite(): Promise<void> {
		return this.inner.probeWrite();
	}

	close(): Promise<void> {
		return this.inner.close();
	}
}
