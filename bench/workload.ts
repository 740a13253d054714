/**
 * The requests the benchmarks send, shared by the project's benchmarks and by the
 * peers they are compared with, so every server gets byte-for-byte the same work.
 */
import { randomUUID } from "node:crypto";
import type { Priority, TemplateParts, Variables } from "../lib/delivery";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A short transactional email, html and text, with one variable: what the platform mostly sends. */
export const TEMPLATE: TemplateParts = {
	subject: "Your sign-in code, {{name}}",
	text: "Hello {{name}},\n\nYour sign-in code is 428913. It expires in 10 minutes.\n\nIf you did not ask for it, ignore this email.\n",
	html: "<p>Hello {{name}},</p><p>Your sign-in code is <b>428913</b>. It expires in 10 minutes.</p><p>If you did not ask for it, ignore this email.</p>"
};
export const VARIABLES: Variables = { name: "Bench User" };
export const RECIPIENT = "bench.recipient@example.com";

export function requestBody(priority: Priority): string {
	return JSON.stringify({ to: RECIPIENT, priority, template: TEMPLATE, variables: VARIABLES });
}

/**
 * The same email as a Liquid template with a condition and a loop (issue 38): what a
 * product team writes once `{{name}}` is not enough.
 */
export const LIQUID_TEMPLATE: TemplateParts = {
	subject: "Your sign-in code, {{ name }}",
	text: "Hello {{ name }},\n\nYour sign-in code is 428913. It expires in 10 minutes.\n{% if devices %}\nSigned in recently:\n{% for d in devices %}- {{ d.name }} ({{ d.city }})\n{% endfor %}{% endif %}\nIf you did not ask for it, ignore this email.\n",
	html: "<p>Hello {{ name }},</p><p>Your sign-in code is <b>428913</b>. It expires in 10 minutes.</p>{% if devices %}<ul>{% for d in devices %}<li>{{ d.name }} ({{ d.city }})</li>{% endfor %}</ul>{% endif %}<p>If you did not ask for it, ignore this email.</p>"
};
export const LIQUID_VARIABLES: Variables = { name: "Bench User", devices: [{ name: "Firefox on Linux", city: "Oslo" }, { name: "Safari on iPhone", city: "Bergen" }] };

export function liquidRequestBody(priority: Priority): string {
	return JSON.stringify({ to: RECIPIENT, priority, template: LIQUID_TEMPLATE, variables: LIQUID_VARIABLES });
}

/** The same code as a one-part SMS: text only, GSM-7. */
export const SMS_TEMPLATE: TemplateParts = { subject: "Sign-in code", text: "{{name}}, your sign-in code is 428913. It expires in 10 minutes." };
export const SMS_RECIPIENT = "+14155550100";

export function smsRequestBody(priority: Priority): string {
	return JSON.stringify({ channel: "SMS", to: SMS_RECIPIENT, priority, template: SMS_TEMPLATE, variables: VARIABLES });
}

/** The 201 body of POST /notifications: a fresh notification id, QUEUED. */
export function isAccepted(body: string): boolean {
	try {
		const b = JSON.parse(body) as { notificationId?: unknown; status?: unknown };
		return b.status === "QUEUED" && typeof b.notificationId === "string" && UUID.test(b.notificationId);
	} catch {
		return false;
	}
}

export function jsonHeaders(token: string): Record<string, string> {
	return { "Content-Type": "application/json", Authorization: `Bearer ${token}` };
}

/** The fields of an actor as GET /actors/{id} answers it, in order. */
export const ACTOR_FIELDS = ["actorId", "email", "firstName", "lastName", "createdAt", "updatedAt"] as const;

export type ActorBody = Record<(typeof ACTOR_FIELDS)[number], string>;

/** Shaped like an actor from the actors service, so every server sends bodies of about the same size. */
export function sampleActor(): ActorBody {
	const now = new Date().toISOString();
	return {
		actorId: randomUUID(),
		email: `bench-${randomUUID().slice(0, 8)}@example.com`,
		firstName: "Bench",
		lastName: "User",
		createdAt: now,
		updatedAt: now
	};
}

/** Whether a body is an actor with exactly the fields the project answers. */
export function isActorBody(body: string): boolean {
	try {
		const b = JSON.parse(body) as Record<string, unknown>;
		const keys = Object.keys(b);
		return keys.length === ACTOR_FIELDS.length && ACTOR_FIELDS.every(k => typeof b[k] === "string");
	} catch {
		return false;
	}
}
