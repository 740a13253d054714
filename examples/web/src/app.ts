/**
 * The example web app: plain HTML and @auth-notify/client, nothing else. One page
 * serves every address, so the platform's links land here too: UI_CALLBACK_PATH
 * (social sign-in, `?token=`) and /verify-email (`#token=`, the verification mail).
 * Its Security section lists the user's sessions (each can be signed out), the security
 * events with each alert's delivery, and exports or deletes the account.
 */
import { ApiError, createClient, webStorage, type Actor, type AuditEvent, type InboxCounts, type InboxItem, type SessionInfo, type TimelineEvent, type WatchHandle } from "@auth-notify/client";
import qrcode from "qrcode-generator";

const baseUrl = document.querySelector<HTMLMetaElement>('meta[name="api-base-url"]')!.content;
const api = createClient({ baseUrl, storage: webStorage(), onAuthRequired: () => showSignedOut("Please sign in.") });
// For trying the SDK from the browser's console.
(window as unknown as { authNotify: typeof api }).authNotify = api;

const $ = <T extends HTMLElement>(selector: string) => document.querySelector<T>(selector)!;
let watching: WatchHandle | null = null;
/** The live inbox stream of the signed-in actor: the bell's badge follows its counts. */
let inboxStream: WatchHandle | null = null;
let actorId = "";
// The stream refreshes the session whenever its token ends it: a page left open stays signed in. Stopping it (the tests do) leaves the page idle.
(window as unknown as { authNotifyInbox: { stop(): void } }).authNotifyInbox = {
	stop() {
		inboxStream?.stop();
		inboxStream = null;
	}
};

function say(text: string, isError = false): void {
	$("#message").textContent = text;
	$("#message").classList.toggle("error", isError);
}

function failed(err: unknown): void {
	say(err instanceof ApiError ? `${err.message} (${err.code})` : String(err), true);
}

function showSignedOut(message?: string): void {
	watching?.stop();
	watching = null;
	inboxStream?.stop();
	inboxStream = null;
	$("#bell").hidden = true;
	$("#inbox").hidden = true;
	$("#security").hidden = true;
	$("#security-open").setAttribute("aria-expanded", "false");
	$("#signed-in").hidden = true;
	$("#signed-out").hidden = false;
	if (message) say(message);
}

/** The ID token's subject is the user's actorId; its claims are read, not trusted: the gateway checks every call. */
function subjectOf(idToken: string): string {
	const payload = idToken.split(".")[1].replace(/-/g, "+").replace(/_/g, "/");
	return (JSON.parse(atob(payload)) as { sub: string }).sub;
}

async function showProfile(): Promise<void> {
	const raw = localStorage.getItem("auth-notify.profile");
	if (!raw || !(await api.accessToken())) return showSignedOut();
	const res = await api.fetch(`/actors/${encodeURIComponent(JSON.parse(raw).actorId)}`);
	if (!res.ok) return showSignedOut(`Could not read the profile (HTTP ${res.status}).`);
	const actor = (await res.json()) as Actor;
	const fields: Record<string, string> = {
		name: `${actor.firstName} ${actor.lastName}`,
		email: actor.email,
		actorId: actor.actorId,
		createdAt: new Date(actor.createdAt).toLocaleString()
	};
	for (const [name, value] of Object.entries(fields)) $(`#profile [data-field="${name}"]`).textContent = value;
	$("#signed-out").hidden = true;
	$("#signed-in").hidden = false;
	followInbox(actor.actorId);
}

/** The badge shows the unseen messages; the bell's label says it to screen readers. */
function showCounts(counts: InboxCounts): void {
	$("#badge").textContent = String(counts.unseen);
	$("#badge").hidden = counts.unseen === 0;
	$("#bell").setAttribute("aria-label", `Notifications, ${counts.unseen} unseen, ${counts.unread} unread`);
}

function inboxEntry(m: InboxItem): HTMLLIElement {
	const item = document.createElement("li");
	item.dataset.id = m.notificationId;
	item.classList.toggle("unread", !m.readAt);
	const title = document.createElement("strong");
	title.textContent = m.title || "(no title)";
	item.append(title, ` ${m.body}`);
	return item;
}

/** Opens the stream once per actor: new messages go to the top of an open panel, counts to the badge. */
function followInbox(id: string): void {
	$("#bell").hidden = false;
	if (inboxStream && actorId === id) return;
	inboxStream?.stop();
	actorId = id;
	inboxStream = api.inbox.stream(id, {
		onCount: showCounts,
		onMessage: m => {
			if ($("#inbox").hidden) return;
			$("#inbox-items").prepend(inboxEntry(m));
			$("#inbox-empty").hidden = true;
			void markSeen([m]).catch(failed);
		}
	});
	inboxStream.done.catch(failed);
}

/** What the panel shows has been seen: the badge goes down (the stream brings the new counts). */
async function markSeen(items: InboxItem[]): Promise<void> {
	await Promise.all(items.filter(m => !m.seenAt).map(m => api.inbox.mark(actorId, m.notificationId, { seen: true })));
}

async function openInbox(): Promise<void> {
	const page = await api.inbox.list(actorId, { state: "all", limit: 10 });
	$("#inbox-items").replaceChildren(...page.items.map(inboxEntry));
	$("#inbox-empty").hidden = page.items.length > 0;
	await markSeen(page.items);
}

/** Who is signed in is kept beside the session, so a reload shows the same profile. */
async function signedIn(tokens: { idToken: string }): Promise<void> {
	localStorage.setItem("auth-notify.profile", JSON.stringify({ actorId: subjectOf(tokens.idToken) }));
	await showProfile();
}

function formValues(form: HTMLFormElement): Record<string, string> {
	return Object.fromEntries([...new FormData(form)].map(([k, v]) => [k, String(v)]));
}

function onSubmit(selector: string, handle: (values: Record<string, string>) => Promise<void>): void {
	$<HTMLFormElement>(selector).addEventListener("submit", event => {
		event.preventDefault();
		say("");
		handle(formValues(event.target as HTMLFormElement)).catch(failed);
	});
}

function watch(notificationId: string): void {
	watching?.stop();
	$("#watch").hidden = false;
	$("#notification-id").textContent = notificationId;
	$("#events").replaceChildren();
	watching = api.notifications.watch(notificationId, (e: TimelineEvent) => {
		$("#status").textContent = e.status;
		const item = document.createElement("li");
		item.dataset.status = e.status;
		item.textContent = `${e.event} at ${new Date(e.occurredAt).toLocaleTimeString()}`;
		$("#events").append(item);
	});
	watching.done.catch(failed);
}

/** The mfaToken of a sign-in waiting for the authenticator app's code. */
let pendingMfa = "";

/** A password sign-in; an account with a passkey confirms with it, one with an authenticator app with its code (MFA_REQUIRED). */
async function passwordSignIn(username: string, password: string): Promise<void> {
	try {
		return await signedIn(await api.login(username, password));
	} catch (err) {
		if (!(err instanceof ApiError) || err.code !== "MFA_REQUIRED" || !err.mfaToken) throw err;
		if (err.factors?.includes("webauthn")) {
			say("Confirm with your passkey.");
			await signedIn(await api.mfa.verify(err.mfaToken, "webauthn"));
			say("");
			return;
		}
		if (!err.factors?.includes("totp")) throw err;
		pendingMfa = err.mfaToken;
		$("#mfa").hidden = false;
		$<HTMLInputElement>("#mfa [name=code]").focus();
		say("Enter the code your authenticator app shows.");
	}
}

/** The otpauth URI as a QR code: an SVG drawn from qrcode-generator's modules (no markup strings). */
function qrSvg(text: string): SVGSVGElement {
	const qr = qrcode(0, "M");
	qr.addData(text);
	qr.make();
	const n = qr.getModuleCount();
	const ns = "http://www.w3.org/2000/svg";
	const svg = document.createElementNS(ns, "svg");
	svg.setAttribute("viewBox", `-4 -4 ${n + 8} ${n + 8}`);
	svg.setAttribute("width", String((n + 8) * 5));
	svg.setAttribute("role", "img");
	svg.setAttribute("aria-label", "QR code for your authenticator app");
	let d = "";
	for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) if (qr.isDark(r, c)) d += `M${c} ${r}h1v1h-1z`;
	const bg = document.createElementNS(ns, "rect");
	for (const [k, v] of Object.entries({ x: "-4", y: "-4", width: String(n + 8), height: String(n + 8), fill: "#fff" })) bg.setAttribute(k, v);
	const path = document.createElementNS(ns, "path");
	path.setAttribute("d", d);
	path.setAttribute("fill", "#000");
	svg.append(bg, path);
	return svg;
}

let pendingFactor = "";

async function enrolTotp(): Promise<void> {
	const enrolment = await api.mfa.enrolTotp("Example app");
	pendingFactor = enrolment.factorId;
	$("#totp-secret").textContent = enrolment.secret;
	$("#totp-qr").replaceChildren(qrSvg(enrolment.otpauthUri));
	$("#totp-qr").dataset.uri = enrolment.otpauthUri;
	$("#recovery").hidden = true;
	$("#totp").hidden = false;
}

/** The one-time code sign-in's challenge, and its live delivery status (polled every second until it ends). */
let otpChallenge = "";
let otpPoll: ReturnType<typeof setInterval> | undefined;

function followOtp(challengeId: string): void {
	otpChallenge = challengeId;
	clearInterval(otpPoll);
	$("#otp").hidden = false;
	const show = async () => {
		const s = await api.otp.status(challengeId);
		const text = `${s.status} (${s.channel}${s.fallbackChannel ? `, also by ${s.fallbackChannel}` : ""})`;
		$("#otp-status").textContent = text;
		$("#otp-status").dataset.status = s.status;
		if (s.status === "VERIFIED" || s.status === "EXPIRED") clearInterval(otpPoll);
	};
	otpPoll = setInterval(() => void show().catch(() => clearInterval(otpPoll)), 1000);
	void show().catch(failed);
}

/** An element with text children only: nothing the platform returns is parsed as HTML. */
function el<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, ...children: (Node | string)[]): HTMLElementTagNameMap[K] {
	const node = document.createElement(tag);
	if (className) node.className = className;
	node.append(...children);
	return node;
}

const when = (iso: string) => new Date(iso).toLocaleString();

/** "Firefox", "Chrome", ... from a user-agent string, for a readable list. */
function browserName(ua: string | null): string {
	if (!ua) return "Unknown browser";
	const found = /(Edg|Firefox|Chrome|Safari)\//.exec(ua);
	return found ? (found[1] === "Edg" ? "Edge" : found[1]) : ua.slice(0, 40);
}

async function revokeSession(s: SessionInfo): Promise<void> {
	await api.sessions.revoke(s.sessionId).catch(err => {
		// Already ended elsewhere: the list is just out of date.
		if (!(err instanceof ApiError && err.status === 404)) throw err;
	});
	if (s.current) {
		localStorage.removeItem("auth-notify.profile");
		await api.logout().catch(() => undefined);
		return showSignedOut("This device is signed out.");
	}
	say(`Signed out ${browserName(s.userAgent)} (${s.ip ?? "unknown address"}).`);
	await showSecurity();
}

function sessionEntry(s: SessionInfo): HTMLLIElement {
	const name = `${browserName(s.userAgent)}${s.current ? " (this device)" : ""}`;
	const button = el("button", "", s.current ? "Sign out here" : "Sign out");
	button.type = "button";
	button.setAttribute("aria-label", `${s.current ? "Sign out here, on" : "Sign out"} ${name}, last used ${when(s.lastUsedAt)}`);
	button.addEventListener("click", () => void revokeSession(s).catch(failed));
	const item = el("li", s.current ? "current" : "", el("strong", "", name), " ", el("span", "meta", `${s.ip ?? "unknown address"} · signed in ${when(s.createdAt)} · last used ${when(s.lastUsedAt)}`), button);
	item.dataset.session = s.sessionId;
	return item;
}

const EVENT_NAMES: Record<string, string> = {
	"auth.registered": "Account created",
	"auth.signed_in": "Signed in",
	"auth.signed_in_new_device": "Signed in on a new device",
	"auth.sign_in_failed": "Failed sign-in",
	"auth.signed_out": "Signed out",
	"auth.session_revoked": "Session signed out",
	"auth.password_changed": "Password changed",
	"auth.password_reset": "Password reset",
	"auth.email_verified": "Email verified",
	"auth.email_changed": "Email changed",
	"auth.mfa_enrolled": "Second factor added",
	"auth.mfa_removed": "Second factor removed",
	"auth.locked": "Account locked",
	"auth.unlocked": "Account unlocked",
	"auth.not_me": "Reported \u201cnot me\u201d",
	"auth.account_exported": "Data exported"
};

function auditEntry(e: AuditEvent): HTMLLIElement {
	const item = el("li", "", el("strong", "", EVENT_NAMES[e.type] ?? e.type), " ", el("span", "meta", `${when(e.occurredAt)} · ${e.ip ?? "unknown address"} · ${browserName(e.userAgent)}`));
	if (e.notificationId) item.append(" ", el("span", "alert", `Alert ${e.deliveryStatus ? e.deliveryStatus.toLowerCase() : "queued"}`));
	item.dataset.type = e.type;
	return item;
}

async function showSecurity(): Promise<void> {
	const [sessions, audit] = await Promise.all([api.sessions.list(), api.audit.list()]);
	$("#sessions").replaceChildren(...sessions.items.map(sessionEntry));
	$("#audit").replaceChildren(...audit.items.map(auditEntry));
}

/** A step-up route refused an old sign-in: the user must sign in again (their password or passkey proves it is them). */
function stepUp(err: unknown, what: string): void {
	if (err instanceof ApiError && err.code === "STEP_UP_REQUIRED") say(`To ${what}, please sign out and sign in again: your sign-in is too old for this.`, true);
	else failed(err);
}

async function downloadExport(): Promise<void> {
	const data = await api.account.export();
	const link = el("a", "");
	link.href = URL.createObjectURL(new Blob([JSON.stringify(data, null, 2)], { type: "application/json" }));
	link.download = "my-account-data.json";
	link.click();
	setTimeout(() => URL.revokeObjectURL(link.href), 60_000);
	say("Your data was downloaded as my-account-data.json.");
}

async function deleteAccount(): Promise<void> {
	const dialog = $<HTMLDialogElement>("#confirm-delete");
	const answer = await new Promise<string>(resolve => {
		dialog.addEventListener("close", () => resolve(dialog.returnValue), { once: true });
		dialog.returnValue = "";
		dialog.showModal();
	});
	if (answer !== "delete") return;
	await api.account.delete();
	localStorage.removeItem("auth-notify.profile");
	showSignedOut("Your account is deleted.");
}

onSubmit("#login", v => passwordSignIn(v.username, v.password));
onSubmit("#mfa", async v => {
	await signedIn(await api.mfa.verify(pendingMfa, "totp", v.code));
	$("#mfa").hidden = true;
	say("");
});
onSubmit("#otp-start", async v => followOtp((await api.otp.start(v.email)).challengeId));
onSubmit("#otp-verify", async v => {
	await signedIn(await api.otp.verify({ challengeId: otpChallenge, code: v.code }));
	clearInterval(otpPoll);
	$("#otp").hidden = true;
});
$("#otp-resend").addEventListener("click", () => {
	say("");
	api.otp.resend(otpChallenge).then(() => say("A new code is on its way; the old one no longer works."), failed);
});
$("#totp-enrol").addEventListener("click", () => {
	say("");
	enrolTotp().catch(failed);
});
onSubmit("#totp-confirm", async v => {
	const confirmed = await api.mfa.confirmTotp(pendingFactor, v.code);
	const codes = confirmed.recoveryCodes ?? [];
	$("#recovery-codes").replaceChildren(...codes.map(c => Object.assign(document.createElement("li"), { textContent: c })));
	$("#recovery").hidden = codes.length === 0;
	$("#totp-confirm").hidden = true;
	say("Authenticator app confirmed: sign-ins now ask for its code.");
});
$("#passkey-signin").addEventListener("click", () => {
	say("");
	api.passkeys.signIn().then(signedIn, failed);
});
$("#passkey-register").addEventListener("click", () => {
	say("");
	api.passkeys.register("Example app passkey").then(() => say("Passkey registered: sign in with it next time."), failed);
});
onSubmit("#register", async v => {
	await signedIn(await api.register({ email: v.email, password: v.password, firstName: v.firstName, lastName: v.lastName }));
	say("Registered. Follow the link in the verification mail before sending to your address.");
});
onSubmit("#send", async v => {
	const email = $("#profile [data-field=email]").textContent!;
	const sent = await api.notifications.send({ to: email, template: { subject: v.subject, text: v.text } });
	watch(sent.notificationId);
});
onSubmit("#send-in-app", async v => {
	await api.notifications.send({ channel: "IN_APP", to: actorId, template: { subject: "Note to self", text: v.text } });
});
$("#bell").addEventListener("click", () => {
	const open = $("#inbox").hidden;
	$("#inbox").hidden = !open;
	$("#bell").setAttribute("aria-expanded", String(open));
	if (open) openInbox().catch(failed);
});
$("#read-all").addEventListener("click", () => {
	api.inbox.readAll(actorId).then(() => {
		for (const li of document.querySelectorAll("#inbox-items li.unread")) li.classList.remove("unread");
	}, failed);
});
$("#security-open").addEventListener("click", () => {
	const open = $("#security").hidden;
	$("#security").hidden = !open;
	$("#security-open").setAttribute("aria-expanded", String(open));
	if (open) showSecurity().catch(failed);
});
$("#sign-out-others").addEventListener("click", () => {
	say("");
	api.sessions
		.revokeOthers()
		.then(() => {
			say("Every other device is signed out.");
			return showSecurity();
		})
		.catch(failed);
});
$("#export").addEventListener("click", () => {
	say("");
	downloadExport().catch(err => stepUp(err, "download your data"));
});
$("#delete-account").addEventListener("click", () => {
	say("");
	deleteAccount().catch(err => stepUp(err, "delete your account"));
});
$("#social").addEventListener("click", () => api.startSocialLogin());
$("#logout").addEventListener("click", () => {
	localStorage.removeItem("auth-notify.profile");
	api.logout().then(
		() => showSignedOut("Signed out."),
		err => {
			showSignedOut();
			failed(err);
		}
	);
});

/** Where the platform's links land: the verification mail's `/verify-email#token=`, the social callback's `?token=`. */
async function start(): Promise<void> {
	const hashToken = new URLSearchParams(location.hash.slice(1)).get("token");
	if (location.pathname === "/verify-email" && hashToken) {
		history.replaceState(null, "", "/");
		const res = await fetch(`${baseUrl}/auth/email/verify`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token: hashToken }) });
		say(res.ok ? "Email address verified." : "That verification link is no longer valid.", !res.ok);
	}
	const social = await api.completeSocialLogin();
	if (social) return signedIn(social);
	await showProfile();
}

start().catch(err => {
	showSignedOut();
	failed(err);
});
