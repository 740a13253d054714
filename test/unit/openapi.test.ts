/**
 * GET /openapi.json's document against the route table it is built from: every
 * gateway alias is in it with a declaration, it is valid OpenAPI 3.1 for a maintained
 * parser, and no operation documents a status its route cannot answer with. The rules
 * below restate, from the route's side, when the gateway answers each code.
 */
import fs from "node:fs";
import path from "node:path";
import { validate } from "@readme/openapi-parser";
import Ajv2020 from "ajv/dist/2020";
import addFormats from "ajv-formats";
import { ERROR_CODES, type ErrorCode } from "../../lib/errors";
import { CODE_STATUS } from "../../lib/openapi/codes";
import GatewayService from "../../services/api-gateway/api-gateway.service";
import { DOCUMENTED_SERVICES, platformDocument } from "../../services/api-gateway/docs";
import { actionCatalog, buildDocument, listAliases, type DocumentedAlias } from "../../services/api-gateway/openapi";
import { ROUTES, type RouteDeclaration } from "../../services/api-gateway/routes";

type Doc = { paths: Record<string, Record<string, { responses: Record<string, Response> }>> };
type Response = { content?: Record<string, { schema?: { allOf?: { properties?: { code?: { enum?: string[] } } }[] } }> };

const GATEWAY = GatewayService as never;
const SERVICES = [...DOCUMENTED_SERVICES, { ...(GatewayService as object), name: "api" }];
const ALIASES = listAliases(ROUTES, actionCatalog(SERVICES));

function problemCodesOf(r: Response): string[] {
	return r.content?.["application/problem+json"]?.schema?.allOf?.[1]?.properties?.code?.enum ?? [];
}

/** Why `code` cannot come from this alias, or null when it can. */
function whyImpossible(a: DocumentedAlias, code: ErrorCode): string | null {
	const takesBody = ["POST", "PUT", "PATCH"].includes(a.method) && a.policy.body !== "none";
	const declared = a.doc?.problems?.includes(code) ?? false;
	const rule = a.schema?.auth;
	switch (code) {
		case "RATE_LIMITED":
			return a.policy.rateLimit || declared ? null : "the alias has no rate limit";
		case "UNSUPPORTED_MEDIA_TYPE":
		case "PAYLOAD_TOO_LARGE":
			return takesBody || declared ? null : "the alias reads no body";
		case "MALFORMED_JSON":
			return (takesBody && a.policy.body !== "multipart" && a.policy.body !== "one-click") || declared ? null : "the alias parses no JSON";
		case "UNAUTHORIZED":
			return a.authentication || declared ? null : "the route requires no token";
		case "FORBIDDEN":
			return (Array.isArray(rule) && !rule.includes("user")) || declared ? null : "every signed-in user may call the action";
		case "SERVICE_NOT_ALLOWED":
			return Array.isArray(rule) && !rule.some(g => g.startsWith("service")) ? null : "every service may call the action";
		case "VALIDATION_ERROR":
			return a.schema?.params || a.policy.body !== "none" || declared ? null : "the action validates nothing and the route reads no body";
		case "UPSTREAM_UNAVAILABLE":
		case "STORAGE_UNAVAILABLE":
			return a.action.startsWith("api.") && !declared ? "the gateway answers it itself" : null;
		case "INTERNAL":
		case "SHUTTING_DOWN":
			return null;
		default:
			return declared ? null : `the action does not declare ${code}`;
	}
}

/** Every documented status the alias cannot answer with, as messages naming the alias. */
function impossibleStatuses(doc: Doc, aliases: DocumentedAlias[]): string[] {
	const out: string[] = [];
	for (const a of aliases) {
		const op = doc.paths[a.path]?.[a.method.toLowerCase()];
		if (!op) continue;
		for (const [status, response] of Object.entries(op.responses)) {
			const own = a.doc && (Number(status) === a.doc.success.status || a.doc.other?.[Number(status)]);
			const codes = problemCodesOf(response);
			if (!own && codes.length === 0) out.push(`${a.label}: documents ${status}, which neither its declaration nor a problem code gives`);
			if (a.policy.failure === "ui-redirect" && status !== "302") out.push(`${a.label}: always redirects, yet documents ${status}`);
			for (const code of codes) {
				const expected = a.doc?.problemStatus?.[code as ErrorCode] ?? CODE_STATUS[code as ErrorCode];
				if (expected !== Number(status)) out.push(`${a.label}: ${code} is answered with ${expected}, not ${status}`);
				const why = whyImpossible(a, code as ErrorCode);
				if (why) out.push(`${a.label}: documents ${status} ${code}, but ${why}`);
			}
		}
	}
	return out;
}

describe("OpenAPI document", () => {
	const built = platformDocument(GATEWAY);
	const doc = built.document as unknown as Doc;

	it("should list every gateway alias with the action's declaration", () => {
		const missing = ALIASES.filter(a => !doc.paths[a.path]?.[a.method.toLowerCase()]).map(a => a.label);
		expect(missing).toEqual([]);
		const unknown = ALIASES.filter(a => !a.schema).map(a => `${a.label} calls ${a.action}, whose service is not in DOCUMENTED_SERVICES (docs.ts)`);
		expect(unknown).toEqual([]);
		expect(built.undocumented).toEqual([]);
		expect(ALIASES.length).toBeGreaterThan(20);
	});

	it("should document no status a route cannot answer with", () => {
		expect(impossibleStatuses(doc, ALIASES)).toEqual([]);
	});

	it("should give every code its one status and describe problems with lib/problem.ts's fields", () => {
		expect(Object.keys(CODE_STATUS).sort()).toEqual([...ERROR_CODES].sort());
		const problem = (built.document as { components: { schemas: { Problem: { required: string[] } } } }).components.schemas.Problem;
		expect(problem.required).toEqual(["type", "title", "status", "detail", "code", "requestId"]);
	});

	it("should be valid OpenAPI 3.1 for a maintained parser", async () => {
		const result = await validate(JSON.parse(JSON.stringify(built.document)));
		expect(result).toMatchObject({ valid: true });
	});

	it("should document path parameters, query parameters, bodies and the Bearer scheme from the action's params", () => {
		const d = built.document as any;
		const login = d.paths["/auth/login"].post;
		expect(login.security).toEqual([]);
		expect(login.requestBody.content["application/json"].schema).toMatchObject({
			type: "object",
			required: ["username", "password"],
			additionalProperties: false,
			properties: { username: { type: "string", minLength: 1, maxLength: 254 } }
		});
		expect(Object.keys(login.responses).sort()).toEqual(["200", "400", "401", "403", "413", "415", "429", "500", "503"]);
		const actor = d.paths["/actors/{id}"].get;
		expect(actor.security).toEqual([{ bearerAuth: [] }]);
		expect(actor.parameters).toEqual([{ name: "id", in: "path", required: true, schema: { type: "string", format: "uuid" } }]);
		expect(actor.requestBody).toBeUndefined();
		expect(d.paths["/actor"].get.parameters[0]).toMatchObject({ name: "actorId", in: "query", required: true });
		expect(d.paths["/auth/social/login/callback"].get.responses).toEqual({ "302": expect.anything() });
		expect(d.paths["/notifications/webhooks/email-provider"].post.requestBody.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/SnsMessage" });
		expect(d.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
		// Checked by the handler (params say `any`): the declaration gives the body.
		expect(d.paths["/actors/{id}/push-subscriptions"].post.requestBody.content["application/json"].schema).toMatchObject({
			required: ["endpoint", "keys"],
			properties: { endpoint: { type: "string" }, keys: { required: ["p256dh", "auth"] } }
		});
	});

	it("should say of every object schema which properties it has, or that any may come", () => {
		// Generators read an object without either as an empty one: the SDK typed `variables` Record<string, never>.
		const silent: string[] = [];
		const walk = (node: unknown, at: string): void => {
			if (!node || typeof node !== "object") return;
			const s = node as Record<string, unknown>;
			if (s.type === "object" && !("properties" in s) && !("additionalProperties" in s)) silent.push(at);
			for (const [k, v] of Object.entries(s)) walk(v, `${at}/${k}`);
		};
		walk(built.document, "#");
		expect(silent).toEqual([]);
		const d = built.document as any;
		const send = d.paths["/notifications"].post.requestBody.content["application/json"].schema.properties;
		expect([send.variables, send.metadata]).toEqual([
			{ type: "object", additionalProperties: true },
			{ type: "object", additionalProperties: true }
		]);
	});

	it("should name an alias added without a declaration, and fail on a status its route cannot answer with", () => {
		const routes: RouteDeclaration[] = [
			...ROUTES,
			{ path: "/probe", body: "none", authentication: false, aliases: { "GET undeclared": "probe.undeclared", "GET overclaiming": "probe.overclaiming" } }
		];
		const probe = {
			name: "probe",
			actions: {
				undeclared: { auth: "public" as const, handler: () => null },
				overclaiming: {
					auth: "public" as const,
					openapi: { summary: "x", success: { status: 200 as const, description: "x" }, problems: ["UNSUPPORTED_MEDIA_TYPE" as const] },
					handler: () => null
				}
			}
		};
		const services = [...SERVICES, probe];
		const probed = buildDocument(routes, services, { version: "0", license: "MIT" });
		expect(probed.undocumented).toEqual([expect.stringContaining("GET /probe/undeclared (probe.undeclared)")]);
		const aliases = listAliases(routes, actionCatalog(services));
		const wrong = aliases.find(a => a.label === "GET /probe/overclaiming")!;
		// Declared by the action, so the rule admits it; a 415 on a route that reads no body is still caught when the gateway adds it.
		expect(whyImpossible({ ...wrong, doc: undefined }, "UNSUPPORTED_MEDIA_TYPE")).toBe("the alias reads no body");
		const doctored = JSON.parse(JSON.stringify(built.document)) as Doc;
		doctored.paths["/health/live"].get.responses["429"] = {
			content: { "application/problem+json": { schema: { allOf: [{}, { properties: { code: { enum: ["RATE_LIMITED"] } } }] } } }
		};
		expect(impossibleStatuses(doctored, ALIASES)).toEqual(["GET /health/live: documents 429 RATE_LIMITED, but the alias has no rate limit"]);
	});

	it("should name the deployment's PUBLIC_URL as its server and the package's licence by its SPDX identifier", () => {
		const d = platformDocument(GATEWAY, "https://notify.example.com").document as any;
		expect(d.servers).toEqual([{ url: "https://notify.example.com", description: expect.any(String) }]);
		// Without a deployment (the SDK's types), the document's own origin.
		expect((built.document as any).servers).toEqual([{ url: "/", description: expect.any(String) }]);
		const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8")) as { license: string };
		expect(d.info.license).toEqual({ name: pkg.license, identifier: pkg.license });
		expect(pkg.license).toBe("MIT");
	});

	it("should declare the headers the gateway reads exactly on the aliases that read them, with the patterns it checks", () => {
		const d = built.document as any;
		const headerParams = (a: DocumentedAlias) => (d.paths[a.path][a.method.toLowerCase()].parameters as { name: string; in: string }[]).filter(p => p.in === "header").map(p => p.name);
		for (const a of ALIASES) {
			const expected = [...(a.policy.idempotencyKey ? ["Idempotency-Key"] : []), ...(a.policy.stream === "sse" || a.policy.stream === "inbox" ? ["Last-Event-ID"] : [])];
			expect([a.label, headerParams(a)]).toEqual([a.label, expected]);
		}
		expect(ALIASES.filter(a => a.policy.idempotencyKey).map(a => a.label)).toEqual(["POST /notifications"]);
		const key = d.paths["/notifications"].post.parameters.find((p: { name: string }) => p.name === "Idempotency-Key");
		const pattern = new RegExp(key.schema.pattern);
		expect(["order-1042", "k".repeat(255)].map(k => pattern.test(k))).toEqual([true, true]);
		expect(["two words", "k".repeat(256), "cl\u00e9", ""].map(k => pattern.test(k))).toEqual([false, false, false, false]);
		const lastEventId = d.paths["/notifications/{notificationId}/events"].get.parameters.find((p: { name: string }) => p.name === "Last-Event-ID");
		expect(new RegExp(lastEventId.schema.pattern).test("000001754000000.0000001.000001")).toBe(true);
		const inboxLastEventId = d.paths["/actors/{id}/inbox/stream"].get.parameters.find((p: { name: string }) => p.name === "Last-Event-ID");
		expect(["019a0000-0000-7000-8000-000000000000", "000001754000000.0000001.000001"].map(k => new RegExp(inboxLastEventId.schema.pattern).test(k))).toEqual([true, false]);
	});

	it("should declare X-Request-Id on every answer and the Bearer challenge on every 401", () => {
		const d = built.document as any;
		const missing: string[] = [];
		for (const [path, ops] of Object.entries(d.paths as Record<string, Record<string, { responses: Record<string, { headers?: Record<string, unknown> }> }>>)) {
			for (const [method, op] of Object.entries(ops)) {
				for (const [status, r] of Object.entries(op.responses)) {
					if (!r.headers?.["X-Request-Id"]) missing.push(`${method} ${path} ${status}: X-Request-Id`);
					if (status === "401" && !r.headers?.["WWW-Authenticate"]) missing.push(`${method} ${path} 401: WWW-Authenticate`);
				}
			}
		}
		expect(missing).toEqual([]);
		expect(d.components.headers.WWWAuthenticate).toMatchObject({ required: true, schema: { type: "string" } });
		// Every route that takes a token answers 401, so each one declares the challenge.
		expect(ALIASES.filter(a => a.authentication && !d.paths[a.path][a.method.toLowerCase()].responses["401"]).map(a => a.label)).toEqual([]);
	});

	it("should give every JSON body a real example, valid against the body the document declares", () => {
		const d = built.document as any;
		const ajv = new Ajv2020({ strict: false, allErrors: true });
		addFormats(ajv);
		ajv.addSchema({ $id: "urn:auth-notify:openapi", components: d.components });
		const problems: string[] = [];
		for (const a of ALIASES.filter(x => ["POST", "PUT"].includes(x.method) && (x.policy.body === "json" || x.policy.body === "flag") && !x.policy.bodyless)) {
			const media = d.paths[a.path][a.method.toLowerCase()].requestBody.content["application/json"];
			if (media.example === undefined) {
				problems.push(`${a.label}: no example (add one to the action's openapi declaration)`);
				continue;
			}
			const schema = JSON.parse(JSON.stringify(media.schema).replaceAll('"#/components/', '"urn:auth-notify:openapi#/components/'));
			if (!ajv.validate(schema, media.example)) problems.push(`${a.label}: ${ajv.errorsText()}`);
		}
		expect(problems).toEqual([]);
	});
});
