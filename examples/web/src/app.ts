/**
 * The example web app: plain HTML and @auth-notify/client, nothing else. One page
 * serves every address, so the platform's links land here too: UI_CALLBACK_PATH
 * (social sign-in, `?token=`) and /verify-email (`#token=`, the verification mail).
 */
import { ApiError, createClient, webStorage, type Actor, type InboxCounts, type InboxItem, type TimelineEvent, type WatchHandle } from "@auth-notify/client";

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

/** A password sign-in; an account with a passkey confirms with it (MFA_REQUIRED). */
async function passwordSignIn(username: string, password: string): Promise<void> {
	try {
		return await signedIn(await api.login(username, password));
	} catch (err) {
		if (!(err instanceof ApiError) || err.code !== "MFA_REQUIRED" || !err.mfaToken || !err.factors?.includes("webauthn")) throw err;
		say("Confirm with your passkey.");
		await signedIn(await api.mfa.verify(err.mfaToken, "webauthn"));
		say("");
	}
}

onSubmit("#login", v => passwordSignIn(v.username, v.password));
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
