/**
 * The stored templates and their versions: the accept path and the dispatcher read
 * them here, the template actions write them here.
 *
 * Every change is a new version. The versions (collection template_versions, id
 * `templateId:version`) are the history; the template's own record is the newest
 * version, for the accept path's one read. A change first claims its number by
 * inserting that version (a unique id: of two concurrent changes one wins, the other
 * takes the next number), then moves the record forward only if it is behind. So
 * without transactions (MongoDB) nothing is lost: a change cut off between the two
 * writes leaves the record one version behind until the next change, whose number
 * is counted from the versions.
 */
import { randomUUID } from "node:crypto";
import { ClientError, badRequest, notFound, type FieldProblem } from "../errors";
import { DuplicateKeyError, type Filter, type Store } from "../store";
import type { Channel, Creator, LocaleParts, TemplateContent, TemplateDoc, TemplateVersionDoc } from "./model";
import { checkTemplate, render, TemplateError, PartRenderError, templateProblem, type TemplateParts, type Variables } from "./render";

export type TemplateView = Omit<TemplateDoc, "id" | "createdBy" | "version"> & { templateId: string; version: number };

export type TemplateFields = TemplateContent;

export interface TemplateVersionView extends TemplateContent {
	version: number;
	createdAt: string;
	restoredFrom?: number;
}

const templates = (store: Store) => store.collection<TemplateDoc>("templates");
const versions = (store: Store) => store.collection<TemplateVersionDoc>("template_versions");

const versionId = (templateId: string, version: number) => `${templateId}:${version}`;

/** The most locales one template may carry. */
export const MAX_LOCALES = 50;

/** A template with neither part would send an empty message: 400, naming `field`. */
export function requireTemplateBody(parts: TemplateParts, field: string): void {
	if (parts.html == null && parts.text == null) {
		throw badRequest("A template needs html or text.", [{ field, message: "A template needs html or text." }]);
	}
}

/** A BCP 47 language tag in its canonical form (`de-at` → `de-AT`), or null when it is not one. */
export function canonicalLocale(tag: string): string | null {
	try {
		const [canonical] = Intl.getCanonicalLocales(tag);
		return canonical ?? null;
	} catch {
		return null;
	}
}

/** `de-AT-x-foo` → `de-AT-x-foo`, `de-AT`, `de`: the tag and each shorter prefix. */
export function localeChain(tag: string): string[] {
	const parts = tag.split("-");
	const chain: string[] = [];
	for (let n = parts.length; n > 0; n--) {
		// A prefix ending in a one-letter singleton (`x`, `u`) is not a tag of its own.
		if (parts[n - 1]!.length === 1) continue;
		chain.push(parts.slice(0, n).join("-"));
	}
	return chain;
}

/**
 * The parts for `locale`: the first of its chain (`de-AT`, then `de`) the template has
 * a translation for, else the default parts. Keys compare without regard to case.
 */
export function partsFor(t: TemplateContent, locale: string | undefined): { parts: TemplateParts; locale?: string } {
	const base: TemplateParts = {};
	if (t.subject != null) base.subject = t.subject;
	if (t.html != null) base.html = t.html;
	if (t.text != null) base.text = t.text;
	const keys = Object.keys(t.locales ?? {});
	if (locale && keys.length) {
		for (const candidate of localeChain(locale)) {
			const lower = candidate.toLowerCase();
			if (t.defaultLocale?.toLowerCase() === lower) break;
			const key = keys.find(k => k.toLowerCase() === lower);
			if (key) return { parts: t.locales![key]!, locale: key };
		}
	}
	return t.defaultLocale ? { parts: base, locale: t.defaultLocale } : { parts: base };
}

/** Every set of parts the template has: the default and each locale's. */
export function allParts(t: TemplateContent): TemplateParts[] {
	return [partsFor(t, undefined).parts, ...Object.values(t.locales ?? {})];
}

/**
 * Checks a template before it is stored: a body in the default parts and in each
 * locale, canonical locale tags, and Liquid that parses (422 TEMPLATE_RENDER_ERROR
 * with the part and line). Answers the content as stored.
 */
export function normalizeContent(fields: TemplateContent): TemplateContent {
	const { name, subject, html, text } = fields;
	requireTemplateBody({ html, text }, "html");
	checkTemplate({ subject, html, text });
	const out: TemplateContent = { name, ...(subject != null ? { subject } : {}), ...(html != null ? { html } : {}), ...(text != null ? { text } : {}) };
	const problems: FieldProblem[] = [];
	if (fields.defaultLocale != null) {
		const tag = canonicalLocale(fields.defaultLocale);
		if (tag) out.defaultLocale = tag;
		else problems.push({ field: "defaultLocale", message: "must be a BCP 47 language tag, such as en or de-AT" });
	}
	if (fields.locales != null) {
		const entries = Object.entries(fields.locales);
		if (entries.length > MAX_LOCALES) problems.push({ field: "locales", message: `may hold at most ${MAX_LOCALES} locales` });
		const locales: Record<string, LocaleParts> = {};
		for (const [key, parts] of entries.slice(0, MAX_LOCALES)) {
			const tag = canonicalLocale(key);
			if (!tag) {
				problems.push({ field: `locales.${key}`, message: "must be keyed by a BCP 47 language tag, such as de or de-AT" });
				continue;
			}
			if (parts == null || typeof parts !== "object") {
				problems.push({ field: `locales.${tag}`, message: "must be an object of subject, html and text" });
				continue;
			}
			if (parts.html == null && parts.text == null) problems.push({ field: `locales.${tag}.html`, message: "A template needs html or text." });
			checkTemplate(parts, `locales.${tag}.`);
			locales[tag] = { ...(parts.subject != null ? { subject: parts.subject } : {}), ...(parts.html != null ? { html: parts.html } : {}), ...(parts.text != null ? { text: parts.text } : {}) };
		}
		if (Object.keys(locales).length) out.locales = locales;
	}
	if (problems.length) throw badRequest(problems[0]!.message.startsWith("A template") ? "A template needs html or text." : `The '${problems[0]!.field}' field is invalid.`, problems);
	return out;
}

export function toTemplateView({ id, createdBy: _c, version, ...rest }: TemplateDoc): TemplateView {
	return { templateId: id, version: version ?? 1, ...rest };
}

function toVersionView({ id: _id, templateId: _t, createdBy: _c, ...rest }: TemplateVersionDoc): TemplateVersionView {
	return rest;
}

function contentOf({ name, defaultLocale, subject, html, text, locales }: TemplateContent): TemplateContent {
	return {
		name,
		...(defaultLocale != null ? { defaultLocale } : {}),
		...(subject != null ? { subject } : {}),
		...(html != null ? { html } : {}),
		...(text != null ? { text } : {}),
		...(locales != null ? { locales } : {})
	};
}

export function findTemplate(store: Store, id: string): Promise<TemplateDoc | null> {
	return templates(store).get(id);
}

/** The template as it was at `version`, or null when it has no such version. */
export async function findTemplateVersion(store: Store, id: string, version: number): Promise<TemplateContent | null> {
	const row = await versions(store).get(versionId(id, version));
	if (row) return row;
	// A template made before versions has no rows until its first change: its record is version 1.
	if (version === 1) {
		const doc = await findTemplate(store, id);
		if (doc && (doc.version ?? 1) === 1) return doc;
	}
	return null;
}

/** At most `limit` templates, most recently changed first: every one, or those `userId` created. */
export function listTemplates(store: Store, limit: number, userId?: string): Promise<TemplateDoc[]> {
	return templates(store).find(userId === undefined ? {} : { "createdBy.kind": "user", "createdBy.id": userId }, { sort: { updatedAt: -1 }, limit });
}

/** The most recently changed template with this name, or null. */
export function newestTemplateNamed(store: Store, name: string): Promise<TemplateDoc | null> {
	return templates(store).findOne({ name }, { sort: { updatedAt: -1 } });
}

/** A template without a subject serves SMS and IN_APP; notifications check what their channel needs when accepted. */
export async function createTemplate(store: Store, fields: TemplateFields, createdBy: Creator): Promise<TemplateDoc> {
	const content = normalizeContent(fields);
	const iso = new Date().toISOString();
	const id = randomUUID();
	// The version first: a record never names a version that is not stored.
	await versions(store).insert({ id: versionId(id, 1), templateId: id, version: 1, ...content, createdBy, createdAt: iso });
	return templates(store).insert({ id, ...content, version: 1, createdBy, createdAt: iso, updatedAt: iso });
}

async function ownedTemplate(store: Store, id: string, mayChange: (owner: Creator) => boolean): Promise<TemplateDoc> {
	const existing = await findTemplate(store, id);
	if (!existing) throw notFound("NOT_FOUND", "No template has this id.");
	if (!mayChange(existing.createdBy)) throw new ClientError(403, "FORBIDDEN", "Only the template's creator or an administrator may change it.");
	return existing;
}

/** The highest version number stored for the template (its record's when it has no rows). */
async function latestVersion(store: Store, doc: TemplateDoc): Promise<number> {
	const [row] = await versions(store).find({ templateId: doc.id }, { sort: { version: -1 }, limit: 1 });
	return Math.max(row?.version ?? 0, doc.version ?? 1);
}

const WRITE_TRIES = 5;

/** Writes `content` as the template's next version and moves its record to it. */
async function writeVersion(store: Store, existing: TemplateDoc, content: TemplateContent, author: Creator, restoredFrom?: number): Promise<TemplateDoc> {
	const id = existing.id;
	if (existing.version == null) {
		// Made before versions: its first change keeps what it was as version 1.
		const { id: _id, version: _v, updatedAt: _u, ...old } = existing;
		try {
			await versions(store).insert({ id: versionId(id, 1), templateId: id, version: 1, ...contentOf(old), createdBy: existing.createdBy, createdAt: existing.updatedAt });
		} catch (err) {
			if (!(err instanceof DuplicateKeyError)) throw err;
		}
	}
	const iso = new Date().toISOString();
	for (let attempt = 0; attempt < WRITE_TRIES; attempt++) {
		const next = (await latestVersion(store, existing)) + 1;
		try {
			await versions(store).insert({ id: versionId(id, next), templateId: id, version: next, ...content, createdBy: author, createdAt: iso, ...(restoredFrom != null ? { restoredFrom } : {}) });
		} catch (err) {
			// Another change took this number: count again.
			if (err instanceof DuplicateKeyError) continue;
			throw err;
		}
		const unset = (["defaultLocale", "subject", "html", "text", "locales"] as const).filter(k => content[k] == null);
		const update = { $set: { ...content, version: next, updatedAt: iso }, ...(unset.length ? { $unset: unset } : {}) };
		// Only forward: a slower change with a lower number never replaces a newer one.
		const behind: Filter = { id, version: { $lt: next } };
		const moved =
			(await templates(store).findOneAndUpdate(behind, update)) ??
			(existing.version == null ? await templates(store).findOneAndUpdate({ id, version: { $exists: false } }, update) : null);
		if (moved) return moved;
		const now = await findTemplate(store, id);
		if (!now) throw notFound("NOT_FOUND", "No template has this id.");
		return now;
	}
	throw new ClientError(409, "IDEMPOTENCY_CONFLICT", "The template is being changed by others at the same time; try again.");
}

/**
 * Replaces name and parts (a part left out is removed) as a new version when
 * `mayReplace` allows it for the template's creator: 404 NOT_FOUND without such a
 * template, 403 FORBIDDEN otherwise.
 */
export async function replaceTemplate(store: Store, id: string, fields: TemplateFields, mayReplace: (owner: Creator) => boolean, author?: Creator): Promise<TemplateDoc> {
	const content = normalizeContent(fields);
	const existing = await ownedTemplate(store, id, mayReplace);
	return writeVersion(store, existing, content, author ?? existing.createdBy);
}

/** Every version of the template, newest first (404 when there is no template; the access rule is the GET's). */
export async function listTemplateVersions(store: Store, id: string): Promise<TemplateVersionView[]> {
	const doc = await findTemplate(store, id);
	if (!doc) throw notFound("NOT_FOUND", "No template has this id.");
	const rows = await versions(store).find({ templateId: id }, { sort: { version: -1 } });
	if (rows.length) return rows.map(toVersionView);
	const { id: _id, version: _v, createdBy: _c, updatedAt, ...old } = doc;
	return [{ ...contentOf(old), version: 1, createdAt: updatedAt }];
}

/** Makes version `version`'s content the newest version (n+1); 404 NOT_FOUND when either is missing. */
export async function restoreTemplateVersion(store: Store, id: string, version: number, mayChange: (owner: Creator) => boolean, author?: Creator): Promise<TemplateDoc> {
	const existing = await ownedTemplate(store, id, mayChange);
	const old = await findTemplateVersion(store, id, version);
	if (!old) throw notFound("NOT_FOUND", "The template has no such version.");
	return writeVersion(store, existing, contentOf(old), author ?? existing.createdBy, version);
}

export interface PreviewRequest {
	variables?: Variables;
	locale?: string;
	channel?: Channel;
}

export interface Preview {
	subject?: string;
	html?: string;
	text: string;
	/** The locale whose parts were rendered (absent: the default parts of a template without defaultLocale). */
	locale?: string;
}

/** Renders what a notification on `channel` would send, without sending: 422 TEMPLATE_RENDER_ERROR with the line. */
export function previewTemplate(t: TemplateContent, { variables = {}, locale, channel = "EMAIL" }: PreviewRequest): Preview {
	const chosen = partsFor(t, locale);
	let out: TemplateParts;
	try {
		out = render(chosen.parts, variables);
	} catch (err) {
		if (err instanceof PartRenderError) throw templateProblem(err, err.part);
		if (err instanceof TemplateError) throw templateProblem(err, "template");
		throw err;
	}
	const preview: Preview = { text: out.text ?? "" };
	// What each channel sends: SMS the text alone, PUSH the title and text, EMAIL everything.
	if (channel !== "SMS" && out.subject != null) preview.subject = out.subject;
	if (channel === "EMAIL" && out.html != null) preview.html = out.html;
	if (chosen.locale) preview.locale = chosen.locale;
	return preview;
}
