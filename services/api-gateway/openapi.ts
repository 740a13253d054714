/**
 * The OpenAPI 3.1 document of every alias in routes.ts, built from what the platform
 * runs on: the route table (path, method, body kind, authentication, policy), each
 * action's `params` (the fastest-validator rules the broker validates calls with) and
 * the `openapi` declaration beside each action (success answer, the codes its handler
 * answers with, an example body). The gateway's own refusals are added from each
 * alias's policy, so a status appears only where the route can answer with it, and so
 * are the request headers it reads (Idempotency-Key, Last-Event-ID) with the patterns
 * it checks them against.
 *
 * An alias whose action has no declaration is still listed, marked
 * x-undocumented, and named in `undocumented`: the unit test fails on it.
 */
import type { ActionSchema, ServiceSchema } from "moleculer";
import type { ErrorCode } from "../../lib/errors";
import { EVENT_SEQ } from "../../lib/notifications";
import { INBOX_SEQ } from "../../lib/inbox";
import { CODE_STATUS } from "../../lib/openapi/codes";
import { FREE_OBJECT, paramsSchema, ruleSchema, type JsonSchema } from "../../lib/openapi/fastest-validator";
import { answer, withExample } from "../../lib/openapi/answers";
import { COMPONENT_HEADERS, withCommonHeaders } from "../../lib/openapi/headers";
import { COMPONENT_SCHEMAS } from "../../lib/openapi/schemas";
import type { ActionDoc } from "../../lib/openapi/types";
import { IDEMPOTENCY_KEY } from "./hooks";
import { ROUTES, type RouteDeclaration } from "./routes";
import type { AppliedPolicy, BodyKind } from "./types";

export interface DocumentedAlias {
	/** "POST /auth/login", as the test names it. */
	label: string;
	method: string;
	/** The OpenAPI path: /actors/{id}. */
	path: string;
	action: string;
	authentication: boolean;
	policy: AppliedPolicy;
	schema?: ActionSchema;
	doc?: ActionDoc;
}

/** What the document says of the platform besides its routes. */
export interface DocumentInfo {
	version: string;
	/** An SPDX identifier (package.json's `license`). */
	license: string;
	/** Where clients reach this deployment (PUBLIC_URL); without one, the document's own origin. */
	serverUrl?: string;
}

export interface BuiltDocument {
	document: Record<string, unknown>;
	undocumented: string[];
}

const BODY_METHODS = new Set(["POST", "PUT", "PATCH"]);
const PROBLEM_JSON = "application/problem+json";

/** Every alias of the table, with the action schema it calls when one is known. */
export function listAliases(routes: readonly RouteDeclaration[], actions: ReadonlyMap<string, ActionSchema>): DocumentedAlias[] {
	return routes.flatMap(route =>
		Object.entries(route.aliases).map(([match, declared]) => {
			const [method, aliasPath] = match.split(" ");
			const { action, ...own } = typeof declared === "string" ? { action: declared } : declared;
			const joined = `/${route.path}/${aliasPath}`.replace(/\/+/g, "/").replace(/(.)\/$/, "$1");
			const path = joined.replace(/:(\w+)/g, "{$1}");
			const schema = actions.get(action);
			const doc = schema?.openapi;
			return { label: `${method} ${joined}`, method, path, action, authentication: route.authentication, policy: { body: route.body, ...route.policy, ...own }, schema, doc };
		})
	);
}

/** A schema's actions with its mixins' (as Moleculer merges them: the schema's own win). */
function actionsOf(s: Partial<ServiceSchema>): Record<string, unknown> {
	const mixins = (s.mixins ?? []) as Partial<ServiceSchema>[];
	return Object.assign({}, ...mixins.map(actionsOf), s.actions ?? {});
}

/** "service.action" to its schema, for every published action of the given services. */
export function actionCatalog(services: readonly Partial<ServiceSchema>[]): Map<string, ActionSchema> {
	const out = new Map<string, ActionSchema>();
	for (const s of services) {
		for (const [name, def] of Object.entries(actionsOf(s))) {
			if (def && typeof def === "object") out.set(`${s.name}.${name}`, def as ActionSchema);
		}
	}
	return out;
}

function takesBody(a: DocumentedAlias): boolean {
	return BODY_METHODS.has(a.method) && a.policy.body !== "none";
}

function hasParams(a: DocumentedAlias): boolean {
	return a.schema?.params !== undefined;
}

/**
 * The codes an alias can answer with: the gateway's, from its policy, and the handler's, from its declaration.
 * The test in test/unit/openapi.test.ts states the same rules from the other side.
 */
export function problemCodes(a: DocumentedAlias): Set<ErrorCode> {
	const codes = new Set<ErrorCode>(["INTERNAL", "SHUTTING_DOWN"]);
	const rule = a.schema?.auth;
	const remote = !a.action.startsWith("api.");
	if (remote) codes.add("UPSTREAM_UNAVAILABLE");
	if (remote && a.doc?.storage !== false) codes.add("STORAGE_UNAVAILABLE");
	if (hasParams(a) || a.policy.body === "json" || a.policy.body === "multipart" || a.policy.body === "flag" || a.policy.body === "one-click" || a.policy.bodyParamsOnly) codes.add("VALIDATION_ERROR");
	if (takesBody(a)) {
		codes.add("PAYLOAD_TOO_LARGE");
		codes.add("UNSUPPORTED_MEDIA_TYPE");
		// A one-click form and a multipart upload are not JSON.
		if (a.policy.body !== "multipart" && a.policy.body !== "one-click") codes.add("MALFORMED_JSON");
	}
	if (a.policy.rateLimit) codes.add("RATE_LIMITED");
	if (a.authentication) codes.add("UNAUTHORIZED");
	if (Array.isArray(rule)) {
		if (!rule.includes("user")) codes.add("FORBIDDEN");
		if (!rule.includes("service") && !rule.some(g => g.startsWith("service:"))) codes.add("SERVICE_NOT_ALLOWED");
	}
	for (const c of a.doc?.problems ?? []) codes.add(c);
	return codes;
}

function responses(a: DocumentedAlias): Record<string, unknown> {
	const doc = a.doc;
	const out: Record<string, unknown> = {};
	if (doc) out[String(doc.success.status)] = answer(doc.success);
	else out.default = { description: "Not documented yet: add an `openapi` declaration beside the action." };
	for (const [status, other] of Object.entries(doc?.other ?? {})) out[status] = answer(other);
	// A browser navigation ends at the UI whatever happens, with only an error code in its address.
	if (a.policy.failure === "ui-redirect") return out;
	const byStatus = new Map<number, ErrorCode[]>();
	for (const code of problemCodes(a)) {
		const status = doc?.problemStatus?.[code] ?? CODE_STATUS[code];
		byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
	}
	for (const [status, codes] of [...byStatus].sort(([x], [y]) => x - y)) {
		const problem = { schema: { allOf: [{ $ref: "#/components/schemas/Problem" }, { properties: { code: { enum: codes } } }] } };
		const taken = out[String(status)] as { description: string; content?: Record<string, unknown> } | undefined;
		// Readiness answers 503 with its report, and with a problem document once the node is stopping.
		if (taken) {
			taken.description += ` Or a problem document: ${codes.join(", ")}.`;
			taken.content = { ...taken.content, [PROBLEM_JSON]: problem };
			continue;
		}
		const retry = status === 429 || status === 503 ? { headers: { "Retry-After": { description: "Seconds to wait before trying again.", schema: { type: "string" } } } } : {};
		out[String(status)] = {
			description: `Problem document: ${codes.join(", ")}.`,
			...retry,
			content: { [PROBLEM_JSON]: problem }
		};
	}
	return out;
}

function pathParamNames(path: string): string[] {
	return [...path.matchAll(/\{(\w+)\}/g)].map(m => m[1]);
}

function parameters(a: DocumentedAlias, params: JsonSchema): unknown[] {
	const props = (params.properties ?? {}) as Record<string, JsonSchema>;
	const required = new Set((params.required as string[] | undefined) ?? []);
	const inPath = pathParamNames(a.path);
	const out: unknown[] = inPath.map(name => ({ name, in: "path", required: true, schema: props[name] ?? { type: "string" } }));
	if (a.method === "GET" || a.method === "DELETE") {
		for (const [name, schema] of Object.entries(props)) {
			if (!inPath.includes(name)) out.push({ name, in: "query", required: required.has(name), schema });
		}
	}
	// The headers the gateway reads for the alias (hooks.ts), with the patterns it checks them against.
	if (a.policy.idempotencyKey) {
		out.push({
			name: "Idempotency-Key",
			in: "header",
			required: false,
			description: "Makes a retry safe. Scoped to the caller: the same key with the same body answers the original result again; with another body, 422 IDEMPOTENCY_KEY_REUSED.",
			schema: { type: "string", pattern: IDEMPOTENCY_KEY.source }
		});
	}
	if (a.policy.stream === "sse" || a.policy.stream === "inbox") {
		const inbox = a.policy.stream === "inbox";
		out.push({
			name: "Last-Event-ID",
			in: "header",
			required: false,
			description: inbox
				? "Resume after this message (the `id:` of a `message` event this stream sent): the messages stored since are sent first."
				: "Resume after this event (the `id:` of an event this stream sent); `after` does the same for the JSON timeline.",
			schema: { type: "string", pattern: (inbox ? INBOX_SEQ : EVENT_SEQ).source }
		});
	}
	return out;
}

function bodyOf(params: JsonSchema, exclude: string[]): JsonSchema {
	const props = { ...((params.properties ?? {}) as Record<string, JsonSchema>) };
	for (const name of exclude) delete props[name];
	const required = ((params.required as string[] | undefined) ?? []).filter(n => !exclude.includes(n));
	return { ...params, properties: props, ...(required.length ? { required } : { required: undefined }) };
}

const REQUEST_BODIES: Record<BodyKind, (a: DocumentedAlias, params: JsonSchema) => unknown> = {
	none: () => undefined,
	json: (a, params) => ({ required: true, content: { "application/json": { schema: a.doc?.body ?? strip(bodyOf(params, pathParamNames(a.path))) } } }),
	flag: a => ({
		required: true,
		content: { "application/json": { schema: a.schema?.params?.value ? ruleSchema(a.schema.params.value as Parameters<typeof ruleSchema>[0]) : FREE_OBJECT } }
	}),
	sns: () => ({
		required: true,
		description: "The SNS message as SNS posts it (text/plain), or as JSON.",
		content: { "text/plain": { schema: { type: "string" } }, "application/json": { schema: { $ref: "#/components/schemas/SnsMessage" } } }
	}),
	// RFC 8058: mail clients post `List-Unsubscribe=One-Click` as a form, or nothing at all.
	"one-click": () => ({
		required: false,
		content: {
			"application/x-www-form-urlencoded": {
				schema: { type: "object", properties: { "List-Unsubscribe": { const: "One-Click" } } }
			}
		}
	}),
	multipart: (_a, params) => {
		const fields = bodyOf(params, Object.keys((params.properties ?? {}) as object).filter(n => n.startsWith("$") || n === "resume"));
		return {
			required: true,
			content: {
				"multipart/form-data": {
					schema: { ...strip(fields), required: ["resume"], properties: { ...(fields.properties as object), resume: { type: "string", contentMediaType: "application/octet-stream" } } }
				}
			}
		};
	}
};

/** Drops keys left undefined, so the document is plain JSON. */
function strip(s: JsonSchema): JsonSchema {
	return JSON.parse(JSON.stringify(s)) as JsonSchema;
}

function operation(a: DocumentedAlias, operationId: string): Record<string, unknown> {
	const params = paramsSchema(a.schema?.params as Record<string, unknown> | undefined);
	const op: Record<string, unknown> = {
		operationId,
		tags: [a.action.split(".")[0]],
		summary: a.doc?.summary ?? a.action,
		...(a.doc?.description ? { description: a.doc.description } : {}),
		security: a.authentication ? [{ bearerAuth: [] }] : [],
		parameters: parameters(a, params)
	};
	if (takesBody(a)) op.requestBody = withExample(REQUEST_BODIES[a.policy.body](a, params), a.doc?.example);
	if (a.policy.rateLimit) op["x-rate-limit-bucket"] = a.policy.rateLimit.bucket;
	if (!a.doc) op["x-undocumented"] = true;
	op.responses = withCommonHeaders(responses(a));
	return op;
}

export function buildDocument(routes: readonly RouteDeclaration[], services: readonly Partial<ServiceSchema>[], info: DocumentInfo): BuiltDocument {
	const aliases = listAliases(routes, actionCatalog(services));
	const paths: Record<string, Record<string, unknown>> = {};
	const ids = new Map<string, number>();
	for (const a of aliases) {
		const seen = (ids.get(a.action) ?? 0) + 1;
		ids.set(a.action, seen);
		(paths[a.path] ??= {})[a.method.toLowerCase()] = operation(a, seen === 1 ? a.action : `${a.action}.${seen}`);
	}
	return {
		document: {
			openapi: "3.1.0",
			info: {
				title: "auth-notify",
				version: info.version,
				description: "Authentication and notifications. Every failure is an RFC 9457 problem document whose `code` is stable; every answer carries X-Request-Id.",
				license: { name: info.license, identifier: info.license }
			},
			servers: [info.serverUrl ? { url: info.serverUrl, description: "This deployment (PUBLIC_URL)." } : { url: "/", description: "Where this document is served." }],
			paths,
			components: {
				schemas: COMPONENT_SCHEMAS,
				headers: COMPONENT_HEADERS,
				securitySchemes: {
					bearerAuth: { type: "http", scheme: "bearer", bearerFormat: "JWT", description: "The accessToken from /auth/login, /auth/register, /auth/tokens/refresh or /auth/tokens/exchange." }
				}
			}
		},
		undocumented: aliases.filter(a => !a.doc).map(a => `${a.label} (${a.action}): add an \`openapi\` declaration beside the action's params`)
	};
}

export { ROUTES };
