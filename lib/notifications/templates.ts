/**
 * The stored templates: the accept path and the dispatcher read them here, the
 * template actions write them here.
 */
import { randomUUID } from "node:crypto";
import { ClientError, badRequest, notFound } from "../errors";
import type { Store } from "../store";
import type { Creator, TemplateDoc } from "./model";
import type { TemplateParts } from "./render";

export type TemplateView = Omit<TemplateDoc, "id" | "createdBy"> & { templateId: string };

export type TemplateFields = TemplateParts & { name: string };

const templates = (store: Store) => store.collection<TemplateDoc>("templates");

/** A template with neither part would send an empty message: 400, naming `field`. */
export function requireTemplateBody(parts: TemplateParts, field: string): void {
	if (parts.html == null && parts.text == null) {
		throw badRequest("A template needs html or text.", [{ field, message: "A template needs html or text." }]);
	}
}

export function toTemplateView({ id, createdBy: _c, ...rest }: TemplateDoc): TemplateView {
	return { templateId: id, ...rest };
}

export function findTemplate(store: Store, id: string): Promise<TemplateDoc | null> {
	return templates(store).get(id);
}

/** The most recently changed template with this name, or null. */
export function newestTemplateNamed(store: Store, name: string): Promise<TemplateDoc | null> {
	return templates(store).findOne({ name }, { sort: { updatedAt: -1 } });
}

/** A template without a subject serves SMS only; notifications check what their channel needs when accepted. */
export async function createTemplate(store: Store, { name, subject, html, text }: TemplateFields, createdBy: Creator): Promise<TemplateDoc> {
	requireTemplateBody({ subject, html, text }, "html");
	const iso = new Date().toISOString();
	return templates(store).insert({
		id: randomUUID(),
		name,
		...(subject != null ? { subject } : {}),
		...(html != null ? { html } : {}),
		...(text != null ? { text } : {}),
		createdBy,
		createdAt: iso,
		updatedAt: iso
	});
}

/**
 * Replaces name and parts (a part left out is removed) when `mayReplace` allows it for
 * the template's creator: 404 NOT_FOUND without such a template, 403 FORBIDDEN otherwise.
 */
export async function replaceTemplate(store: Store, id: string, fields: TemplateFields, mayReplace: (owner: Creator) => boolean): Promise<TemplateDoc> {
	const { name, subject, html, text } = fields;
	requireTemplateBody(fields, "html");
	const existing = await findTemplate(store, id);
	if (!existing) throw notFound("NOT_FOUND", "No template has this id.");
	if (!mayReplace(existing.createdBy)) throw new ClientError(403, "FORBIDDEN", "Only the template's creator or an administrator may replace it.");
	const unset = [subject == null ? "subject" : null, html == null ? "html" : null, text == null ? "text" : null].filter((f): f is string => f !== null);
	const doc = await templates(store).findOneAndUpdate(
		{ id },
		{ $set: { name, ...(subject != null ? { subject } : {}), ...(html != null ? { html } : {}), ...(text != null ? { text } : {}), updatedAt: new Date().toISOString() }, $unset: unset }
	);
	if (!doc) throw notFound("NOT_FOUND", "No template has this id.");
	return doc;
}
