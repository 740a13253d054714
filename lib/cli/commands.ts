/**
 * The commands of `auth-notify`: each names its words, positional arguments and
 * options (node:util parseArgs), and runs against the platform over HTTP or against
 * the local configuration (lib/cli/local.ts, lib/cli/doctor.ts).
 */
import type { ParseArgsOptionDescriptor } from "node:util";
import type { Env } from "../config";
import { doctor } from "./doctor";
import type { OutboxSummary } from "../outbox";
import { configOrFail, createAdmin, readLocalOutbox, rotateUnsubscribe } from "./local";
import { CommandFailure, UsageError, fields, table, type Outcome } from "./output";
import type { PlatformClient } from "./platform";

export type Values = Record<string, string | boolean | undefined>;

export interface CommandContext {
	env: Env;
	args: string[];
	values: Values;
	/** --url as given (commands that look at the platform without signing in). */
	url?: string;
	/** The platform client; made on first use (commands that stay local never sign in). */
	platform(): PlatformClient;
	/** The administrator the command line signs in as (--email, else BOOTSTRAP_ADMIN_EMAIL), when it knows one. */
	adminEmail?: string;
	adminPassword?: string;
}

export interface Command {
	words: string[];
	args: string[];
	summary: string;
	options?: Record<string, ParseArgsOptionDescriptor & { description: string }>;
	/** Talks to the running platform: --url and the administrator's credentials apply. */
	remote?: boolean;
	run(ctx: CommandContext): Promise<Outcome>;
}

interface ServiceAccount {
	serviceId: string;
	username: string;
	createdAt: string;
	password?: string;
}

interface AdminUser {
	actorId: string;
	email: string;
	firstName: string;
	lastName: string;
	createdAt: string;
	locked: boolean;
	lockedAt?: string;
	emailVerified?: boolean;
}

interface NotificationView {
	notificationId: string;
	status: string;
	channel: string;
	to: string;
	events?: { event: string; occurredAt: string; detail?: unknown }[];
}

/** Statuses a notification does not leave (or leaves only through a provider's later report). */
const SETTLED = new Set(["SENT", "DELIVERED", "BOUNCED", "COMPLAINT", "FAILED", "SUPPRESSED", "UNSUBSCRIBED", "CANCELLED"]);
const FAILED = new Set(["FAILED", "BOUNCED", "COMPLAINT", "SUPPRESSED", "UNSUBSCRIBED", "CANCELLED"]);

function positiveInt(value: string | boolean | undefined, name: string, fallback: number, max: number): number {
	if (value === undefined) return fallback;
	const n = Number(value);
	if (!Number.isInteger(n) || n < 1 || n > max) throw new UsageError(`--${name} must be a whole number from 1 to ${max}`);
	return n;
}

/** An actor id, or the id of the account with exactly this email. */
async function resolveActor(ctx: CommandContext, who: string): Promise<AdminUser> {
	const platform = ctx.platform();
	if (!who.includes("@")) return (await platform.request<AdminUser>("GET", `/admin/users/${encodeURIComponent(who)}`)).body;
	const page = await platform.request<{ items: AdminUser[] }>("GET", `/admin/users?query=${encodeURIComponent(who)}`);
	const hit = page.body.items.find(u => u.email === who.trim().toLowerCase());
	if (!hit) throw new CommandFailure(`No account has the email ${who}`, "ACTOR_NOT_FOUND", 404);
	return (await platform.request<AdminUser>("GET", `/admin/users/${hit.actorId}`)).body;
}

const userRows = (items: AdminUser[]) => items.map(u => [u.actorId, u.email, `${u.firstName} ${u.lastName}`, u.locked ? "locked" : "", u.createdAt]);

function outboxText(items: OutboxSummary[]): string {
	return table(
		["WRITTEN", "CHANNEL", "TO", "SUBJECT / TEXT", "ID"],
		items.map(m => [m.createdAt, m.channel, m.to, (m.subject ?? m.preview).slice(0, 60), m.id])
	);
}

export const COMMANDS: Command[] = [
	{
		words: ["admin", "create"],
		args: [],
		summary: "Make --email an administrator with --password, in the configured store (no running platform needed)",
		async run(ctx) {
			const email = ctx.adminEmail;
			const password = ctx.adminPassword;
			if (!email || !password) throw new UsageError("admin create needs --email and --password (or BOOTSTRAP_ADMIN_EMAIL and BOOTSTRAP_ADMIN_PASSWORD)");
			const result = await createAdmin(ctx.env, email, password);
			return {
				json: result,
				text: result.created ? `Administrator ${result.email} created; sign in with POST /auth/login or the console.` : `${result.email} is an administrator.`
			};
		}
	},
	{
		words: ["service-account", "create"],
		args: ["serviceId"],
		summary: "Create a service account; its password is shown this once",
		remote: true,
		async run(ctx) {
			const { body } = await ctx.platform().request<ServiceAccount>("POST", "/admin/service-accounts", { serviceId: ctx.args[0] });
			return {
				json: body,
				text: `${fields({ serviceId: body.serviceId, username: body.username, password: body.password, createdAt: body.createdAt })}\nKeep the password now: it is not shown again. Sign in with POST /auth/services/token.`
			};
		}
	},
	{
		words: ["service-account", "list"],
		args: [],
		summary: "List the service accounts",
		remote: true,
		async run(ctx) {
			const { body } = await ctx.platform().request<{ items: ServiceAccount[] }>("GET", "/admin/service-accounts");
			return { json: body, text: table(["SERVICE", "USERNAME", "CREATED"], body.items.map(a => [a.serviceId, a.username, a.createdAt])) };
		}
	},
	{
		words: ["service-account", "delete"],
		args: ["serviceId"],
		summary: "Delete a service account (its tokens work until they expire)",
		remote: true,
		async run(ctx) {
			await ctx.platform().request("DELETE", `/admin/service-accounts/${encodeURIComponent(ctx.args[0])}`);
			return { json: { serviceId: ctx.args[0], deleted: true }, text: `Service account ${ctx.args[0]} deleted.` };
		}
	},
	{
		words: ["send"],
		args: [],
		summary: "Send a test notification (to the administrator by default) and optionally wait for its outcome",
		remote: true,
		options: {
			to: { type: "string", description: "The recipient (default: the administrator's email)" },
			channel: { type: "string", description: "EMAIL (default), SMS, PUSH or IN_APP" },
			subject: { type: "string", description: "The subject (default \"Test notification from auth-notify\")" },
			text: { type: "string", description: "The text" },
			wait: { type: "boolean", description: "Wait until the notification is sent or fails (exit 1 when it fails)" },
			timeout: { type: "string", description: "Seconds --wait waits at most (default 30)" }
		},
		async run(ctx) {
			const platform = ctx.platform();
			const to = (ctx.values.to as string | undefined) ?? platform.email;
			if (!to) throw new UsageError("send needs --to (or an administrator email to send to)");
			const channel = ((ctx.values.channel as string | undefined) ?? "EMAIL").toUpperCase();
			const timeoutSec = positiveInt(ctx.values.timeout, "timeout", 30, 3600);
			const template = {
				subject: (ctx.values.subject as string | undefined) ?? "Test notification from auth-notify",
				text: (ctx.values.text as string | undefined) ?? "This test notification was sent with `auth-notify send`. If you read it, delivery works."
			};
			const { body: accepted } = await platform.request<{ notificationId: string; status: string }>("POST", "/notifications", { channel, to, template, category: "general" });
			if (!ctx.values.wait) {
				return { json: { ...accepted, channel, to }, text: `Notification ${accepted.notificationId} queued to ${to} (${channel}). Follow it with GET /notifications/${accepted.notificationId}, or run send with --wait.` };
			}
			const deadline = Date.now() + timeoutSec * 1000;
			let view: NotificationView;
			for (let delay = 50; ; delay = Math.min(delay * 2, 500)) {
				view = (await platform.request<NotificationView>("GET", `/notifications/${accepted.notificationId}`)).body;
				if (SETTLED.has(view.status) || Date.now() > deadline) break;
				await new Promise(r => setTimeout(r, delay));
			}
			const settled = SETTLED.has(view.status);
			const ok = settled && !FAILED.has(view.status);
			const last = view.events?.[view.events.length - 1];
			return {
				ok,
				json: { notificationId: view.notificationId, status: view.status, channel: view.channel, to: view.to, events: view.events ?? [] },
				text: settled
					? `Notification ${view.notificationId} to ${view.to}: ${view.status}${!ok && last?.detail ? ` (${JSON.stringify(last.detail)})` : ""}`
					: `Notification ${view.notificationId} is still ${view.status} after ${timeoutSec} s: see GET /notifications/${view.notificationId}, and check the dispatcher's log and \`auth-notify doctor\`.`
			};
		}
	},
	{
		words: ["keys", "rotate"],
		args: [],
		summary: "Rotate the token signing key on the running platform (or the unsubscribe key, locally)",
		options: { unsubscribe: { type: "boolean", description: "Rotate the unsubscribe link key in the configured store instead (restart the dispatchers after)" } },
		remote: true,
		async run(ctx) {
			if (ctx.values.unsubscribe) {
				const kid = await rotateUnsubscribe(ctx.env);
				return { json: { key: "unsubscribe", kid }, text: `New unsubscribe key ${kid} stored; restart the dispatcher nodes to sign with it.` };
			}
			const { body } = await ctx.platform().request<{ kid: string }>("POST", "/admin/keys/rotate");
			return { json: { key: "signing", kid: body.kid }, text: `New signing key ${body.kid} signs from now on; tokens signed before stay valid until they expire.` };
		}
	},
	{
		words: ["users", "list"],
		args: [],
		summary: "List user accounts (by email prefix or actor id with --query)",
		remote: true,
		options: {
			query: { type: "string", description: "The start of an email address, or an actor id" },
			cursor: { type: "string", description: "The nextCursor of the previous page" }
		},
		async run(ctx) {
			const q = new URLSearchParams();
			if (ctx.values.query) q.set("query", ctx.values.query as string);
			if (ctx.values.cursor) q.set("cursor", ctx.values.cursor as string);
			const { body } = await ctx.platform().request<{ items: AdminUser[]; nextCursor?: string }>("GET", `/admin/users${q.size ? `?${q}` : ""}`);
			const more = body.nextCursor ? `\nMore: users list --cursor ${body.nextCursor}${ctx.values.query ? ` --query ${ctx.values.query as string}` : ""}` : "";
			return { json: body, text: table(["ACTOR", "EMAIL", "NAME", "STATE", "CREATED"], userRows(body.items)) + more };
		}
	},
	{
		words: ["users", "show"],
		args: ["actorId|email"],
		summary: "Show one account",
		remote: true,
		async run(ctx) {
			const user = await resolveActor(ctx, ctx.args[0]);
			return { json: user, text: fields({ ...user }) };
		}
	},
	{
		words: ["users", "lock"],
		args: ["actorId|email"],
		summary: "Lock an account: its sessions end and password sign-in is refused",
		remote: true,
		async run(ctx) {
			const user = await resolveActor(ctx, ctx.args[0]);
			await ctx.platform().request("POST", `/admin/users/${user.actorId}/lock`);
			return { json: { actorId: user.actorId, email: user.email, locked: true }, text: `${user.email} (${user.actorId}) is locked.` };
		}
	},
	{
		words: ["users", "unlock"],
		args: ["actorId|email"],
		summary: "Unlock an account",
		remote: true,
		async run(ctx) {
			const user = await resolveActor(ctx, ctx.args[0]);
			await ctx.platform().request("POST", `/admin/users/${user.actorId}/unlock`);
			return { json: { actorId: user.actorId, email: user.email, locked: false }, text: `${user.email} (${user.actorId}) is unlocked.` };
		}
	},
	{
		words: ["outbox"],
		args: [],
		summary: "Print the newest messages of the dev inbox (file providers and in-app)",
		options: { limit: { type: "string", description: "How many (default 10, at most 100)" } },
		async run(ctx) {
			const limit = positiveInt(ctx.values.limit, "limit", 10, 100);
			const items = await readLocalOutbox(configOrFail(ctx.env), limit);
			return { json: { items }, text: outboxText(items) };
		}
	},
	{
		words: ["doctor"],
		args: [],
		summary: "Check the configuration, store, NATS, Redis, providers and keys; say what to fix",
		run: ctx => doctor(ctx.env, ctx.url)
	}
];
