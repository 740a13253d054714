/**
 * Every request example GET /openapi.json gives is sent, as it stands, to its route on
 * a running platform, with a token the route's rule admits (a user's, an
 * administrator's or a service's, as the action's `auth` says). Each answer must be one
 * the document declares for the operation (status, required headers, body schema:
 * test/helpers/openapi.ts), and the example must be accepted: the documented success.
 *
 * The examples are one story: Ada registers with the registration example, signs in
 * with the login example, and so on. A few examples carry a one-time secret no
 * document can hold (a refresh token, a token from a mail, a service account's
 * password): sent as they stand they are refused with the 401 the document names
 * for it, which shows the server took their shape; where the test can get a real
 * secret, the example is sent again with it and must succeed.
 */
import type { ErrorCode } from "../../lib/errors";
import GatewayService from "../../services/api-gateway/api-gateway.service";
import { DOCUMENTED_SERVICES } from "../../services/api-gateway/docs";
import { actionCatalog, listAliases, type DocumentedAlias } from "../../services/api-gateway/openapi";
import { ROUTES } from "../../services/api-gateway/routes";
import { linkToken, waitForMail } from "../helpers/mail";
import { DocumentedAnswers, type Operation } from "../helpers/openapi";
import { http, startPlatform, type HttpResult, type Platform } from "../helpers/platform";
import { ADMIN_ENV, adminToken, serviceToken } from "../helpers/senders";

const UI = "https://ui.examples.test";
const ALIASES = listAliases(ROUTES, actionCatalog([...DOCUMENTED_SERVICES, { ...(GatewayService as object), name: "api" }]));

type Body = Record<string, unknown>;

interface Example {
	label: string;
	method: string;
	template: string;
	mediaType: string;
	body: Body;
	operation: Operation;
	alias: DocumentedAlias;
}

/** What the story needs before the rest: Ada's account and verified address, a template, a service account. Ada's password changes last. */
const FIRST = ["POST /auth/register", "POST /auth/email/verify", "POST /templates", "POST /admin/service-accounts", "POST /auth/mfa/totp"];
const LAST = ["POST /auth/password/change"];

let p: Platform;
let answers: DocumentedAnswers;
const story: { actorId?: string; userToken?: string; adminToken?: string; templateId?: string; servicePassword?: string; inboxMessageId?: string; factorId?: string; challengeId?: string } = {};

/**
 * A message in Ada's inbox, for the inbox examples: sent to herself, then waited for.
 * CRITICAL, because the preferences example gives Ada quiet hours (22:00 to 07:00 in
 * Vienna) and a NORMAL message sent during them waits for their end.
 */
async function inboxMessage(): Promise<string> {
	if (story.inboxMessageId) return story.inboxMessageId;
	const n = await http(p.baseUrl, "POST", "/notifications", { token: story.userToken, json: { channel: "IN_APP", to: story.actorId, priority: "CRITICAL", template: { text: "Welcome" } } });
	expect(n.status).toBe(201);
	const deadline = Date.now() + 10000;
	for (;;) {
		const list = await http(p.baseUrl, "GET", `/actors/${story.actorId}/inbox`, { token: story.userToken });
		if (list.body.items.some((i: { notificationId: string }) => i.notificationId === n.body.notificationId)) break;
		if (Date.now() > deadline) throw new Error("The inbox example's message never arrived");
		await new Promise(resolve => setTimeout(resolve, 25));
	}
	return (story.inboxMessageId = n.body.notificationId as string);
}

/** Ada's refresh token from a fresh sign-in with the login example (each refresh rotates it). */
async function freshRefreshToken(login: Example): Promise<string> {
	const res = await http(p.baseUrl, "POST", login.template, { json: login.body });
	expect(res.status).toBe(200);
	return res.body.refreshToken;
}

/** Examples refused as they stand, with the code the document names, and how to make their secret real where the test can. */
function refusedAsGiven(examples: Example[]): Record<string, { code: ErrorCode; status?: number; real?: (body: Body) => Promise<Body> }> {
	const login = examples.find(e => e.label === "POST /auth/login")!;
	const email = () => examples.find(e => e.label === "POST /auth/register")!.body.email as string;
	return {
		"POST /auth/tokens/refresh": { code: "INVALID_REFRESH_TOKEN", real: async body => ({ ...body, refreshToken: await freshRefreshToken(login) }) },
		"POST /auth/refresh-user-token": { code: "INVALID_REFRESH_TOKEN", real: async body => ({ ...body, refreshToken: await freshRefreshToken(login) }) },
		"POST /auth/email/verify": {
			code: "INVALID_VERIFICATION_TOKEN",
			real: async body => ({ ...body, token: linkToken(await waitForMail(p.dataDir, email(), /Verify your email/, 1, 30_000), UI, "/verify-email") })
		},
		"POST /auth/services/token": { code: "INVALID_CREDENTIALS", real: async body => ({ ...body, password: story.servicePassword }) },
		// A real one needs a social sign-in through a provider (test/integration/social.test.ts).
		"POST /auth/tokens/exchange": { code: "INVALID_TEMPORARY_TOKEN" },
		// A real one changes Ada's password under the later examples (test/integration/account-lifecycle.test.ts).
		"POST /auth/password/reset": { code: "INVALID_RESET_TOKEN" },
		// Ada has no factor: a real mfaToken would need one, and then every later sign-in of the story would ask for it (test/integration/mfa.test.ts).
		"POST /auth/mfa/verify": { code: "INVALID_MFA_TOKEN" },
		"POST /auth/mfa/challenge": { code: "INVALID_MFA_TOKEN" },
		// A real credential needs a browser's authenticator (test/integration/browser-passkeys.test.ts).
		"POST /auth/passkeys/registration": { code: "INVALID_WEBAUTHN_RESPONSE", status: 400 },
		"POST /auth/passkeys/authentication": { code: "INVALID_WEBAUTHN_RESPONSE" },
		// The example's code is not the one mailed (test/integration/otp.test.ts reads it from the outbox).
		"POST /auth/otp/verify": { code: "INVALID_OTP" },
		// The example's code is not the one texted (test/integration/otp-sms.test.ts reads it from the SMSC).
		"POST /auth/phone/verify": { code: "INVALID_OTP" },
		// Confirming Ada's pending factor would do the same; the example's code is not the app's.
		"POST /auth/mfa/totp/{factorId}/confirm": { code: "INVALID_MFA_CODE" },
		// A real token comes in a security alert's mail, and using it ends all of Ada's sessions (test/integration/security-alerts.test.ts).
		"POST /auth/security/not-me": { code: "INVALID_SECURITY_TOKEN" }
	};
}

function documentedExamples(): Example[] {
	const out: Example[] = [];
	for (const [template, ops] of Object.entries(answers.doc.paths)) {
		for (const [method, operation] of Object.entries(ops)) {
			const media = Object.entries(operation.requestBody?.content ?? {}).find(([, m]) => m.example !== undefined);
			if (!media) continue;
			const label = `${method.toUpperCase()} ${template}`;
			const alias = ALIASES.find(a => a.method === method.toUpperCase() && a.path === template);
			if (!alias) throw new Error(`${label} is in the document but not in the route table`);
			out.push({ label, method: method.toUpperCase(), template, mediaType: media[0], body: media[1].example as Body, operation, alias });
		}
	}
	const rank = (e: Example) => (FIRST.includes(e.label) ? FIRST.indexOf(e.label) - FIRST.length : LAST.includes(e.label) ? 1 + LAST.indexOf(e.label) : 0);
	return out.sort((a, b) => rank(a) - rank(b));
}

/** The token the route's rule admits: none for public routes, else Ada's, the administrator's or a service's. */
async function tokenFor(alias: DocumentedAlias): Promise<string | undefined> {
	const rule = alias.schema?.auth;
	if (rule === "public") return undefined;
	if (!Array.isArray(rule)) throw new Error(`${alias.label}: its action declares no auth rule`);
	if (rule.includes("user")) return story.userToken;
	if (rule.includes("admin")) return (story.adminToken ??= await adminToken(p.baseUrl));
	const service = rule.find(g => g === "service" || g.startsWith("service:"));
	if (service) return serviceToken(p, service === "service" ? "notifications" : service.slice("service:".length));
	throw new Error(`${alias.label}: no token for the rule ${JSON.stringify(rule)}`);
}

/** Path parameters the examples' routes take, from what the story made so far. */
function fill(e: Example): string {
	return e.template.replace(/\{(\w+)\}/g, (_, name: string) => {
		const value =
			e.template.startsWith("/actors/") && name === "id"
				? story.actorId
				: e.template.startsWith("/templates/") && name === "id"
					? story.templateId
					: e.template.includes("/inbox/") && name === "notificationId"
						? story.inboxMessageId
						: name === "featureName"
							? "checkout.new-flow"
							: name === "factorId"
								? story.factorId
								: name === "challengeId"
									? story.challengeId
									: undefined;
		if (!value) throw new Error(`${e.label}: the test has no value for {${name}} yet`);
		return value;
	});
}

async function send(e: Example, body: Body): Promise<HttpResult> {
	if (e.template.includes("/inbox/{notificationId}")) await inboxMessage();
	const res = await http(p.baseUrl, e.method, fill(e), { token: await tokenFor(e.alias), body: JSON.stringify(body), headers: { "content-type": e.mediaType } });
	answers.conforms(e.method, e.template, res);
	return res;
}

function successStatus(op: Operation): number {
	const statuses = Object.keys(op.responses).map(Number).filter(s => s >= 200 && s < 300);
	expect(statuses).toHaveLength(1);
	return statuses[0];
}

/** What the story keeps of an answer. */
function remember(e: Example, res: HttpResult): void {
	if (e.label === "POST /auth/register") Object.assign(story, { actorId: res.body.actorId, userToken: res.body.accessToken });
	if (e.label === "POST /templates") story.templateId = res.body.templateId;
	if (e.label === "POST /admin/service-accounts") story.servicePassword = res.body.password;
	if (e.label === "POST /auth/mfa/totp") story.factorId = res.body.factorId;
	if (e.label === "POST /auth/otp") story.challengeId = res.body.challengeId;
}

describe("the OpenAPI document's request examples against the running platform", () => {
	const sent = new Set<string>();

	beforeAll(async () => {
		// The webhook endpoint and push subscription examples name public hosts: this machine resolves none, so their checks are off.
		p = await startPlatform({ ...ADMIN_ENV, UI_BASE_URL: UI, WEBHOOK_ALLOW_PRIVATE_URLS: "true", PUSH_ALLOW_INSECURE_ENDPOINTS: "true" });
		answers = await DocumentedAnswers.load(p.baseUrl);
	});
	afterAll(() => p.stop());

	it("should accept every example, answering as the document declares", async () => {
		const examples = documentedExamples();
		expect(examples.length).toBeGreaterThan(15);
		const refused = refusedAsGiven(examples);
		for (const e of examples) {
			const res = await send(e, e.body);
			const special = refused[e.label];
			if (special) {
				expect({ example: e.label, status: res.status, code: res.body?.code }).toEqual({ example: e.label, status: special.status ?? 401, code: special.code });
				if (special.real) {
					const real = await send(e, await special.real(e.body));
					expect({ example: `${e.label}, its secret made real`, status: real.status, body: real.body }).toMatchObject({ example: `${e.label}, its secret made real`, status: successStatus(e.operation) });
				}
			} else {
				expect({ example: e.label, status: res.status, body: res.body }).toMatchObject({ example: e.label, status: successStatus(e.operation) });
				remember(e, res);
			}
			// The endpoint would be sent Ada's notifications; it has shown it is accepted, and goes.
			if (e.label === "POST /webhook-endpoints") {
				const removed = await http(p.baseUrl, "DELETE", `/webhook-endpoints/${res.body.endpointId}`, { token: story.userToken });
				answers.conforms("DELETE", "/webhook-endpoints/{endpointId}", removed);
				expect(removed.status).toBe(204);
			}
			sent.add(e.label);
		}
	}, 60_000);

	it("should have sent the example of every operation that has one, and every JSON body has one", () => {
		const withBody = ALIASES.filter(a => ["POST", "PUT"].includes(a.method) && (a.policy.body === "json" || a.policy.body === "flag") && !a.policy.bodyless).map(a => `${a.method} ${a.path}`);
		expect(withBody.filter(label => !sent.has(label))).toEqual([]);
		expect(sent.size).toBe(documentedExamples().length);
	});
});
