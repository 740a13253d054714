/**
 * What a notification refers to besides its own record: the stored templates and
 * the suppression list. The accept path and the dispatcher read them here, the
 * template actions and the provider webhook write them here.
 */
import { randomUUID } from "node:crypto";
import { ClientError, badRequest, notFound } from "../errors";
import { DuplicateKeyError, type Store } from "../store";
import type { Channel, Creator, SuppressionDoc, TemplateDoc } from "./model";
import type { TemplateParts } from "./render";
import { normalizeEmail } from "../email-address";

export type TemplateView = Omit<TemplateDoc, "id" | "createdBy"> & { templateId: string };

export type TemplateFields = TemplateParts & { name: string };

const templates = (store: Store) => store.collection<TemplateDoc>("templates");
const suppressions = (store: Store) => store.collection<SuppressionDoc>("suppressions");

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

/** Suppressions are kept per mailbox, whatever case or spacing an address arrives in. */
export function normalizeAddress(address: string): string {
	return normalizeEmail(address);
}

/**
 * A suppression holds for one channel: an email address by its mailbox (the ids of
 * records from before SMS), an SMS number (E.164, as stored) under its channel's name,
 * so a number that fails for SMS stops SMS alone.
 */
export function suppressionId(channel: Channel, address: string): string {
	return channel === "EMAIL" ? normalizeAddress(address) : `${channel}:${address}`;
}

export async function isSuppressed(store: Store, channel: Channel, address: string): Promise<boolean> {
	return (await suppressions(store).get(suppressionId(channel, address))) !== null;
}

/** Puts the address on the channel's suppression list; the first reason stays when it is already there. */
export async function suppress(store: Store, channel: Channel, address: string, reason: string, notificationId: string, now = Date.now()): Promise<void> {
	try {
		await suppressions(store).insert({ id: suppressionId(channel, address), channel, address: suppressedAddress(channel, address), reason, notificationId, createdAt: new Date(now).toISOString() });
	} catch (err) {
		if (!(err instanceof DuplicateKeyError)) throw err;
	}
}

function suppressedAddress(channel: Channel, address: string): string {
	return channel === "EMAIL" ? normalizeAddress(address) : address;
}

export interface SuppressionView {
	channel: Channel;
	address: string;
	reason: string;
	createdAt: string;
}

function toSuppressionView(doc: SuppressionDoc): SuppressionView {
	const channel = doc.channel ?? "EMAIL";
	const address = doc.address ?? (channel === "EMAIL" ? doc.id : doc.id.slice(channel.length + 1));
	return { channel, address, reason: doc.reason, createdAt: doc.createdAt };
}

/** The suppressions of one address (on every channel), or the newest ones when no address is given. */
export async function listSuppressions(store: Store, address?: string, limit = 100): Promise<SuppressionView[]> {
	if (address === undefined) return (await suppressions(store).find({}, { sort: { createdAt: -1 }, limit })).map(toSuppressionView);
	const ids = [...new Set((["EMAIL", "SMS", "PUSH"] as Channel[]).map(c => suppressionId(c, address.trim())))];
	const docs = await Promise.all(ids.map(id => suppressions(store).get(id)));
	return docs.filter((d): d is SuppressionDoc => d !== null).map(toSuppressionView);
}

/** Lifts a suppression: the address gets mail (or texts) again. False when there was none. */
export async function removeSuppression(store: Store, channel: Channel, address: string): Promise<boolean> {
	return (await suppressions(store).deleteMany({ id: suppressionId(channel, address.trim()) })) > 0;
}
