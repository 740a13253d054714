/**
 * The bad-input corpus: one table of requests no well-behaved client sends, against
 * every route of a platform that runs every service. Each must be answered within a
 * deadline with a 4xx problem document (application/problem+json, a known code, the
 * request id) that echoes no secret and none of a large input. The one exception is
 * the social sign-in callback: it is a browser navigation, so every failure there is
 * a 302 to the UI with only ?error=<code> (the contract's rule), and those rows check
 * that instead. After the table, the store, the uploaded files and the outbox must be
 * exactly as the setup left them.
 *
 * Rate limits are raised here so that the table exercises the routes themselves;
 * test/integration/rate-limit.test.ts checks the limits.
 */
import fs from "node:fs";
import path from "node:path";
import { randomToken } from "../../lib/crypto";
import { ERROR_CODES } from "../../lib/errors";
import { MAX_JSON_DEPTH } from "../../lib/http/json-guard";
import { SOCIAL_ERROR_CODES } from "../../lib/social/failure";
import { SCHEMA } from "../../lib/store/schema";
import { MockProvider } from "../helpers/oauth2-provider";
import { http, newUser, runtime, startPlatform, type Platform } from "../helpers/platform";
import { freePort, waitFor } from "../helpers/processes";
import { rawRequest } from "../helpers/raw-http";
import { PDF, REFUSED } from "../helpers/resumes";

const PROBLEM = "application/problem+json; charset=utf-8";
const UI = "https://ui.corpus.test";
const UI_PATH = "/signed-in";
const NOBODY = "00000000-0000-4000-8000-000000000000";
const MIB = 1024 * 1024;
const DEADLINE_MS = 15_000;

/** Distinctive values the table submits; no answer may contain them. */
const CORPUS_PASSWORD = "Corpus-Secret-Passw0rd-9f3a";
const FAKE_REFRESH = `corpus-refresh-${randomToken(24)}`;
const FAKE_TEMPORARY = randomToken(32);

type Who = "user" | "admin" | "none";

interface Setup {
	user: { email: string; password: string };
	userTokens: { accessToken: string; refreshToken: string; idToken: string };
	adminTokens: { accessToken: string; refreshToken: string };
	actorId: string;
	templateId: string;
	documentId: string;
	notificationId: string;
	closedPort: number;
}

interface Row {
	name: string;
	method: string;
	/** `{actorId}`, `{templateId}`, `{documentId}` and `{notificationId}` are filled in from the setup. */
	path: string;
	who: Who;
	headers?: Record<string, string>;
	body?: string | Uint8Array | ((s: Setup) => string);
	/** A whole HTTP/1.1 request written to a socket, for what fetch refuses to send. */
	raw?: (s: Setup) => string | Buffer;
	status?: number;
	code?: string;
	/** A field problem the answer's `errors` must hold (an enum's message names the allowed values). */
	fieldProblem?: { field: string; message: string };
	/** Header lines that must not appear in the answer (injection attempts). */
	absentHeaders?: string[];
	/** The social callback: a redirect to the UI with ?error= instead of a problem document. */
	uiRedirect?: true;
	/**
	 * The one 5xx here: the message names a signing certificate on an allowed host that
	 * does not answer. That is a dependency being down, not bad input, and the answer is
	 * 503 UPSTREAM_UNAVAILABLE so that SNS delivers the message again later.
	 */
	dependencyDown?: true;
}

const rows: Row[] = [];
const add = (...r: Row[]) => rows.push(...r);

const JSON_TYPE = { "content-type": "application/json" };
const json = (v: unknown) => JSON.stringify(v);
const bytes = (...parts: (string | number[])[]) => Buffer.concat(parts.map(p => (typeof p === "string" ? Buffer.from(p, "utf8") : Buffer.from(p))));
const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

// ---- JSON routes: every kind of broken body, then every required field broken

interface JsonRoute {
	method: "POST" | "PUT";
	path: string;
	who: Who;
	/** A well-formed body; the rows break it. */
	base: Record<string, unknown>;
	required: string[];
	requiredStrings: string[];
	/** /auth routes take parameters from the body only. */
	bodyOnly?: boolean;
	/** An object field where a nested prototype key can hide. */
	objectField?: string;
}

const jsonRoutes: JsonRoute[] = [
	{ method: "POST", path: "/auth/login", who: "none", base: { username: "corpus@example.com", password: CORPUS_PASSWORD }, required: ["username", "password"], requiredStrings: ["username", "password"], bodyOnly: true },
	{
		method: "POST",
		path: "/auth/register",
		who: "none",
		base: { email: "corpus-new@example.com", password: CORPUS_PASSWORD, firstName: "Corpus", lastName: "Row" },
		required: ["email", "password", "firstName", "lastName"],
		requiredStrings: ["email", "password", "firstName", "lastName"],
		bodyOnly: true
	},
	{ method: "POST", path: "/auth/tokens/refresh", who: "none", base: { refreshToken: FAKE_REFRESH }, required: ["refreshToken"], requiredStrings: ["refreshToken"], bodyOnly: true },
	{ method: "POST", path: "/auth/refresh-user-token", who: "none", base: { refreshToken: FAKE_REFRESH }, required: ["refreshToken"], requiredStrings: ["refreshToken"], bodyOnly: true },
	{ method: "POST", path: "/auth/tokens/exchange", who: "none", base: { token: FAKE_TEMPORARY }, required: ["token"], requiredStrings: ["token"], bodyOnly: true },
	{
		method: "POST",
		path: "/notifications",
		who: "admin",
		base: { to: "corpus@example.com", template: { subject: "s", text: "t" }, variables: { name: "x" } },
		required: ["to"],
		requiredStrings: ["to"],
		objectField: "variables"
	},
	// A subject is optional in a template (one for SMS needs none), but never empty or of another type.
	{ method: "POST", path: "/templates", who: "admin", base: { name: "corpus", subject: "s", text: "t" }, required: ["name"], requiredStrings: ["name", "subject"] },
	{ method: "PUT", path: "/templates/{templateId}", who: "admin", base: { name: "corpus", subject: "s", text: "t" }, required: ["name"], requiredStrings: ["name", "subject"] }
];

const WRONG_TYPES: [string, unknown][] = [
	["a number", 42],
	["a boolean", true],
	["an array", ["x"]],
	["an object", { x: 1 }],
	["null", null]
];

for (const r of jsonRoutes) {
	const at = `${r.method} ${r.path}`;
	const first = r.required[0];
	const text = json(r.base);
	const rest = text.slice(1);
	const row = (name: string, body: string | Uint8Array, status: number, code?: string, headers: Record<string, string> = JSON_TYPE): Row => ({
		name: `${at}: ${name}`,
		method: r.method,
		path: r.path,
		who: r.who,
		headers,
		body,
		status,
		code
	});
	add(
		row("malformed JSON", `{"${first}":`, 400, "MALFORMED_JSON"),
		row("truncated JSON", text.slice(0, Math.floor(text.length / 2)), 400, "MALFORMED_JSON"),
		row("trailing garbage after the object", `${text} trailing`, 400, "MALFORMED_JSON"),
		row("single-quoted JSON", text.replace(/"/g, "'"), 400, "MALFORMED_JSON"),
		row("NaN as a value", `{"${first}":NaN}`, 400, "MALFORMED_JSON"),
		row("a comment in JSON", `/* c */${text}`, 400, "MALFORMED_JSON"),
		row("an array body", json([r.base]), 400, "VALIDATION_ERROR"),
		row("a string body", json("text"), 400),
		row("a number body", "42", 400),
		row("a null body", "null", 400),
		row("an empty body", "", 400, "VALIDATION_ERROR"),
		row("an empty object", "{}", 400, "VALIDATION_ERROR"),
		row("an unknown field", json({ ...r.base, isAdmin: true }), 400, "VALIDATION_ERROR"),
		row("a __proto__ key", `{"__proto__":{"isAdmin":true},${rest}`, 400, "VALIDATION_ERROR"),
		row("a __proto__ key written with a unicode escape", `{"\\u005f_proto__":{"isAdmin":true},${rest}`, 400, "VALIDATION_ERROR"),
		row("a constructor key", `{"constructor":{"prototype":{"isAdmin":true}},${rest}`, 400, "VALIDATION_ERROR"),
		row("10,000 nested arrays", `{"${first}":${nestedArrays(10_000)}}`, 400, "VALIDATION_ERROR"),
		row(`objects nested one level past the limit of ${MAX_JSON_DEPTH}`, `{"${first}":${nestedObjects(MAX_JSON_DEPTH)}}`, 400, "VALIDATION_ERROR"),
		row("invalid UTF-8 in a string", bytes(`{"${first}":"a`, [0xff, 0xfe], `"}`), 400, "MALFORMED_JSON"),
		row("an overlong UTF-8 encoding of /", bytes(`{"${first}":"`, [0xc0, 0xaf], `"}`), 400, "MALFORMED_JSON"),
		row("a UTF-8-encoded lone surrogate", bytes(`{"${first}":"`, [0xed, 0xa0, 0x80], `"}`), 400, "MALFORMED_JSON"),
		row("a body cut inside a multi-byte character", bytes(`{"${first}":"`, [0xe2, 0x82]), 400, "MALFORMED_JSON"),
		row("text/plain", text, 415, "UNSUPPORTED_MEDIA_TYPE", { "content-type": "text/plain" }),
		row("a form body", "a=b", 415, "UNSUPPORTED_MEDIA_TYPE", { "content-type": "application/x-www-form-urlencoded" }),
		row("multipart/form-data", "--x--\r\n", 415, "UNSUPPORTED_MEDIA_TYPE", { "content-type": "multipart/form-data; boundary=x" }),
		row("no content type", Buffer.from(text), 415, "UNSUPPORTED_MEDIA_TYPE", {}),
		row("a Latin-1 charset", text, 415, "UNSUPPORTED_MEDIA_TYPE", { "content-type": "application/json; charset=latin1" }),
		row("a UTF-16 charset", Buffer.from(text, "utf16le"), 415, "UNSUPPORTED_MEDIA_TYPE", { "content-type": "application/json; charset=utf-16" }),
		row("a JSON-like media type", text, 415, "UNSUPPORTED_MEDIA_TYPE", { "content-type": "application/json-patch+json" }),
		row("a body over 1 MiB", json({ ...r.base, [first]: "x".repeat(MIB + 16) }), 413, "PAYLOAD_TOO_LARGE")
	);
	for (const field of r.required) {
		const { [field]: _dropped, ...without } = r.base;
		add(row(`without ${field}`, json(without), 400, "VALIDATION_ERROR"));
		for (const [label, value] of WRONG_TYPES) add(row(`${field} as ${label}`, json({ ...r.base, [field]: value }), 400, "VALIDATION_ERROR"));
	}
	for (const field of r.requiredStrings) {
		add(
			row(`${field} empty`, json({ ...r.base, [field]: "" }), 400, "VALIDATION_ERROR"),
			row(`${field} a string of nearly 1 MiB`, json({ ...r.base, [field]: "x".repeat(MIB - 1024) }), 400, "VALIDATION_ERROR")
		);
	}
	if (r.bodyOnly) add({ ...row("parameters in the query string", text, 400, "VALIDATION_ERROR"), path: `${r.path}?${first}=x&password=${CORPUS_PASSWORD}` });
	if (r.objectField) {
		add(
			row(`a __proto__ key inside ${r.objectField}`, text.replace(`"${r.objectField}":{`, `"${r.objectField}":{"__proto__":{"x":1},`), 400, "VALIDATION_ERROR"),
			row(`${r.objectField} nested past the limit`, json({ ...r.base, [r.objectField]: JSON.parse(nestedObjects(MAX_JSON_DEPTH)) }), 400, "VALIDATION_ERROR")
		);
	}
}

// ---- what each JSON route refuses for its own reasons

const post = (p: string, who: Who, name: string, body: unknown, status: number, code: string, headers: Record<string, string> = JSON_TYPE): Row => ({
	name: `POST ${p}: ${name}`,
	method: "POST",
	path: p,
	who,
	headers,
	body: typeof body === "function" ? (body as (s: Setup) => string) : json(body),
	status,
	code
});

add(
	post("/auth/login", "none", "a wrong password", (s: Setup) => json({ username: s.user.email, password: CORPUS_PASSWORD }), 401, "INVALID_CREDENTIALS"),
	post("/auth/login", "none", "an unknown user", { username: "nobody@example.com", password: CORPUS_PASSWORD }, 401, "INVALID_CREDENTIALS"),
	post("/auth/login", "none", "a username with a NUL byte", (s: Setup) => json({ username: `${s.user.email}\u0000`, password: s.user.password }), 401, "INVALID_CREDENTIALS"),
	post("/auth/login", "none", "a 255-character username", { username: `${"u".repeat(243)}@example.com`, password: CORPUS_PASSWORD }, 400, "VALIDATION_ERROR"),
	post("/auth/login", "none", "a 1025-character password", { username: "corpus@example.com", password: `${CORPUS_PASSWORD}${"p".repeat(1000)}` }, 400, "VALIDATION_ERROR")
);
const register = (overrides: Record<string, unknown>) => ({ email: "corpus-new@example.com", password: CORPUS_PASSWORD, firstName: "Corpus", lastName: "Row", ...overrides });
const BAD_EMAILS = [
	"plain",
	"a@",
	"@example.com",
	"a b@example.com",
	"a@example.com\r\nBcc: x@example.com",
	"<a@example.com>",
	"a@example.com,b@example.com",
	'"x" <a@example.com>, "y"@example.com',
	"a@example.com ",
	`${"e".repeat(250)}@example.com`
];
for (const email of BAD_EMAILS) {
	add(post("/auth/register", "none", `the email ${JSON.stringify(email.slice(0, 40))}`, register({ email }), 400, "VALIDATION_ERROR"));
}
add(
	post("/auth/register", "none", "a password that breaks the policy", register({ password: "password" }), 422, "INVALID_PASSWORD"),
	post("/auth/register", "none", "an email that is taken, in upper case", (s: Setup) => json(register({ email: s.user.email.toUpperCase() })), 409, "USER_EXISTS"),
	post("/auth/register", "none", "a first name of spaces", register({ firstName: "   " }), 400, "VALIDATION_ERROR"),
	post("/auth/register", "none", "a first name with a line break", register({ firstName: "Ada\r\nBcc: x@example.com" }), 400, "VALIDATION_ERROR"),
	post("/auth/register", "none", "a last name with a NUL byte", register({ lastName: "Love\u0000lace" }), 400, "VALIDATION_ERROR"),
	post("/auth/register", "none", "a 101-character last name", register({ lastName: "l".repeat(101) }), 400, "VALIDATION_ERROR")
);
for (const p of ["/auth/tokens/refresh", "/auth/refresh-user-token"]) {
	add(
		post(p, "none", "an unknown refresh token", { refreshToken: FAKE_REFRESH }, 401, "INVALID_REFRESH_TOKEN"),
		post(p, "none", "an access token instead of a refresh token", (s: Setup) => json({ refreshToken: s.userTokens.accessToken }), 401, "INVALID_REFRESH_TOKEN"),
		post(p, "none", "a refresh token with a NUL byte", (s: Setup) => json({ refreshToken: `${s.userTokens.refreshToken}\u0000` }), 401, "INVALID_REFRESH_TOKEN"),
		post(p, "none", "an 8193-character refresh token", { refreshToken: "r".repeat(8193) }, 400, "VALIDATION_ERROR")
	);
}
add(
	post("/auth/tokens/exchange", "none", "an unknown temporary token", { token: FAKE_TEMPORARY }, 401, "INVALID_TEMPORARY_TOKEN"),
	post("/auth/tokens/exchange", "none", "a temporary token one character short", { token: FAKE_TEMPORARY.slice(1) }, 401, "INVALID_TEMPORARY_TOKEN"),
	post("/auth/tokens/exchange", "none", "a temporary token outside base64url", { token: `${FAKE_TEMPORARY.slice(3)}../` }, 401, "INVALID_TEMPORARY_TOKEN"),
	post("/auth/tokens/exchange", "none", "a 257-character temporary token", { token: "t".repeat(257) }, 401, "INVALID_TEMPORARY_TOKEN")
);

// As the administrator: a user may send only to itself (test/integration/who-may-send.test.ts).
const notification = (overrides: Record<string, unknown>) => ({ to: "corpus@example.com", template: { subject: "s", text: "t" }, ...overrides });
add(
	post("/notifications", "admin", "templateId and template together", { ...notification({}), templateId: NOBODY }, 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "neither templateId nor template", { to: "corpus@example.com" }, 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "a templateId that is not a UUID", { to: "corpus@example.com", templateId: "../../templates" }, 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "an unknown templateId", { to: "corpus@example.com", templateId: NOBODY }, 422, "TEMPLATE_NOT_FOUND"),
	post("/notifications", "admin", "a template without html or text", notification({ template: { subject: "s" } }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "a template with an unknown part", notification({ template: { subject: "s", text: "t", script: "x" } }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "a template variable that is not given", notification({ template: { subject: "{{name}}", text: "t" } }), 422, "TEMPLATE_VARIABLE_MISSING"),
	post("/notifications", "admin", "a variable named constructor that is not given", notification({ template: { subject: "{{constructor}}", text: "t" } }), 422, "TEMPLATE_VARIABLE_MISSING"),
	post("/notifications", "admin", "an SMS with an html part", notification({ channel: "SMS", to: "+14155550100", template: { subject: "s", text: "t", html: "h" } }), 422, "CHANNEL_NOT_SUPPORTED"),
	post("/notifications", "admin", "an SMS template of text and html, without a subject", notification({ channel: "SMS", to: "+14155550100", template: { text: "t", html: "h" } }), 422, "CHANNEL_NOT_SUPPORTED"),
	post("/notifications", "admin", "an EMAIL template without a subject", notification({ template: { text: "t" } }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "a PUSH template without a subject", (s: Setup) => json(notification({ channel: "PUSH", to: s.actorId, template: { text: "t" } })), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "a subject as a number", notification({ template: { subject: 42, text: "t" } }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "an SMS to an email address", notification({ channel: "SMS" }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "a PUSH to an email address", notification({ channel: "PUSH" }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "an IN_APP to an email address", notification({ channel: "IN_APP" }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "an IN_APP template without a text", (s: Setup) => json(notification({ channel: "IN_APP", to: s.actorId, template: { subject: "s", html: "<p>h</p>" } })), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "data on an EMAIL", notification({ data: { a: 1 } }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "data that is not an object", (s: Setup) => json(notification({ channel: "IN_APP", to: s.actorId, template: { text: "t" }, data: [1] })), 400, "VALIDATION_ERROR"),
	{ ...post("/notifications", "admin", "an unknown channel", notification({ channel: "PIGEON" }), 400, "VALIDATION_ERROR"), fieldProblem: { field: "channel", message: "The 'channel' field must be one of: EMAIL, SMS, PUSH, IN_APP." } },
	{ ...post("/notifications", "admin", "an unknown priority", notification({ priority: "URGENT" }), 400, "VALIDATION_ERROR"), fieldProblem: { field: "priority", message: "The 'priority' field must be one of: CRITICAL, HIGH, NORMAL, LOW." } },
	...BAD_EMAILS.map(to => post("/notifications", "admin", `the recipient ${JSON.stringify(to.slice(0, 40))}`, notification({ to }), 400, "VALIDATION_ERROR")),
	post("/notifications", "admin", "variables as an array", notification({ variables: ["x"] }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "metadata as a string", notification({ metadata: "x" }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "a 999-character subject", notification({ template: { subject: "s".repeat(999), text: "t" } }), 400, "VALIDATION_ERROR"),
	post("/notifications", "admin", "an Idempotency-Key with a space", notification({}), 400, "VALIDATION_ERROR", { ...JSON_TYPE, "idempotency-key": "two words" }),
	post("/notifications", "admin", "a 256-character Idempotency-Key", notification({}), 400, "VALIDATION_ERROR", { ...JSON_TYPE, "idempotency-key": "k".repeat(256) }),
	post("/notifications", "admin", "an Idempotency-Key outside ASCII", notification({}), 400, "VALIDATION_ERROR", { ...JSON_TYPE, "idempotency-key": "cl\u00e9" }),
	post("/templates", "admin", "neither html nor text", { name: "n", subject: "s" }, 400, "VALIDATION_ERROR"),
	...WRONG_TYPES.filter(([, value]) => value !== null).map(([label, subject]) => post("/templates", "admin", `subject as ${label}`, { name: "n", subject, text: "t" }, 400, "VALIDATION_ERROR")),
	post("/templates", "admin", "a name of spaces", { name: "   ", subject: "s", text: "t" }, 400, "VALIDATION_ERROR"),
	post("/templates", "admin", "a 201-character name", { name: "n".repeat(201), subject: "s", text: "t" }, 400, "VALIDATION_ERROR"),
	post("/templates", "admin", "html over 512 KiB", { name: "n", subject: "s", html: "h".repeat(512 * 1024 + 1) }, 400, "VALIDATION_ERROR"),
	post("/templates", "none", "no token", { name: "n", subject: "s", text: "t" }, 401, "UNAUTHORIZED"),
	post("/notifications", "none", "no token", notification({}), 401, "UNAUTHORIZED")
);
const putTemplate = (p: string, who: Who, name: string, status: number, code: string): Row => ({
	name: `PUT ${p}: ${name}`,
	method: "PUT",
	path: p,
	who,
	headers: JSON_TYPE,
	body: json({ name: "n", subject: "s", text: "t" }),
	status,
	code
});
add(
	putTemplate("/templates/not-a-uuid", "admin", "an id that is not a UUID", 400, "VALIDATION_ERROR"),
	putTemplate(`/templates/${NOBODY}`, "admin", "an unknown id", 404, "NOT_FOUND"),
	putTemplate("/templates/{templateId}", "user", "a user who did not create the template", 403, "FORBIDDEN"),
	putTemplate("/templates/{templateId}", "none", "no token", 401, "UNAUTHORIZED")
);

// ---- feature flags: the body is the value and must be a JSON object

const flag = (name: string, body: string | Uint8Array, status: number, code?: string, opts: { who?: Who; headers?: Record<string, string>; flagPath?: string } = {}): Row => ({
	name: `PUT /admin/features/{name}: ${name}`,
	method: "PUT",
	path: opts.flagPath ?? "/admin/features/corpus.flag",
	who: opts.who ?? "admin",
	headers: opts.headers ?? JSON_TYPE,
	body,
	status,
	code
});
add(
	flag("an array", "[1]", 400, "VALIDATION_ERROR"),
	flag("a string", '"on"', 400, "VALIDATION_ERROR"),
	flag("a number", "1", 400, "VALIDATION_ERROR"),
	flag("null", "null", 400, "VALIDATION_ERROR"),
	flag("true", "true", 400, "VALIDATION_ERROR"),
	flag("an empty body", "", 400, "VALIDATION_ERROR"),
	flag("malformed JSON", '{"enabled":', 400, "MALFORMED_JSON"),
	flag("a __proto__ key", '{"__proto__":{"enabled":true}}', 400, "VALIDATION_ERROR"),
	flag("a nested constructor key", '{"a":{"constructor":{"prototype":{}}}}', 400, "VALIDATION_ERROR"),
	flag(`objects nested past ${MAX_JSON_DEPTH} levels`, nestedObjects(MAX_JSON_DEPTH + 1), 400, "VALIDATION_ERROR"),
	flag("10,000 nested arrays", `{"a":${nestedArrays(10_000)}}`, 400, "VALIDATION_ERROR"),
	flag("invalid UTF-8", bytes('{"a":"', [0xff], '"}'), 400, "MALFORMED_JSON"),
	flag("text/plain", '{"enabled":true}', 415, "UNSUPPORTED_MEDIA_TYPE", { headers: { "content-type": "text/plain" } }),
	flag("no content type", Buffer.from('{"enabled":true}'), 415, "UNSUPPORTED_MEDIA_TYPE", { headers: {} }),
	flag("a body over 1 MiB", json({ a: "x".repeat(MIB + 16) }), 413, "PAYLOAD_TOO_LARGE"),
	flag("an upper-case name", '{"enabled":true}', 400, "VALIDATION_ERROR", { flagPath: "/admin/features/Corpus" }),
	flag("a name with a space", '{"enabled":true}', 400, "VALIDATION_ERROR", { flagPath: "/admin/features/a%20b" }),
	flag("a name that climbs directories", '{"enabled":true}', 400, "VALIDATION_ERROR", { flagPath: "/admin/features/..%2F..%2Fetc" }),
	flag("a 101-character name", '{"enabled":true}', 400, "VALIDATION_ERROR", { flagPath: `/admin/features/${"f".repeat(101)}` }),
	flag("a user who is not an administrator", '{"enabled":true}', 403, "FORBIDDEN", { who: "user" }),
	flag("no token", '{"enabled":true}', 401, "UNAUTHORIZED", { who: "none" })
);

// ---- GET routes with an id in the path

const get = (p: string, who: Who, name: string, status: number, code?: string, headers?: Record<string, string>): Row => ({ name: `GET ${p}: ${name}`, method: "GET", path: p, who, status, code, headers });

const BAD_IDS: [string, string][] = [
	["not a UUID", "not-a-uuid"],
	["a UUID one character short", NOBODY.slice(1)],
	["a UUID one character long", `${NOBODY}0`],
	["a NUL byte", "%00"],
	["a broken percent-encoding", "%E0%A4%A"],
	["an encoded directory climb", "..%2F..%2Fetc%2Fpasswd"],
	["SQL", "'%20OR%201=1--"],
	["a template expression", "%7B%7B7*7%7D%7D"],
	["a 4,000-character id", "a".repeat(4000)]
];
const ID_ROUTES: [string, string][] = [
	["/actors/", "ACTOR_NOT_FOUND"],
	["/resumes/", "DOCUMENT_NOT_FOUND"],
	["/notifications/", "NOTIFICATION_NOT_FOUND"],
	["/templates/", "NOT_FOUND"]
];
for (const [prefix, notFoundCode] of ID_ROUTES) {
	for (const [label, id] of BAD_IDS) add(get(`${prefix}${id}`, "user", label, 400, "VALIDATION_ERROR"));
	add(
		get(`${prefix}${NOBODY}`, "user", "an unknown id", 404, notFoundCode),
		get(`${prefix}${NOBODY}?extra=1`, "user", "an unknown query parameter", 400, "VALIDATION_ERROR"),
		get(`${prefix}${NOBODY}`, "none", "no token", 401, "UNAUTHORIZED"),
		get(`${prefix}${NOBODY}`, "none", "a token that is not a JWT", 401, "UNAUTHORIZED", { authorization: "Bearer not-a-jwt" }),
		get(`${prefix}${NOBODY}`, "none", "an unsigned JWT", 401, "UNAUTHORIZED", { authorization: "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiJ4IiwiY29nbml0bzpncm91cHMiOlsiYWRtaW4iXX0." }),
		get(`${prefix}${NOBODY}`, "none", "Basic credentials", 401, "UNAUTHORIZED", { authorization: `Basic ${Buffer.from(`corpus:${CORPUS_PASSWORD}`).toString("base64")}` })
	);
}
for (const [label, id] of BAD_IDS.slice(0, 5)) add(get(`/resumes/${id}/content`, "user", label, 400, "VALIDATION_ERROR"));
add(
	get(`/resumes/${NOBODY}/content`, "user", "an unknown id", 404, "DOCUMENT_NOT_FOUND"),
	get(`/resumes/${NOBODY}/content`, "none", "no token", 401, "UNAUTHORIZED"),
	get("/actor", "user", "no actorId", 400, "VALIDATION_ERROR"),
	get("/actor?actorId=", "user", "an empty actorId", 400, "VALIDATION_ERROR"),
	get("/actor?actorId=a&actorId=b", "user", "actorId twice", 400, "VALIDATION_ERROR"),
	get("/actor?actorId[x]=1", "user", "actorId as an object", 400, "VALIDATION_ERROR"),
	get(`/actor?actorId=${"a".repeat(65)}`, "user", "a 65-character actorId", 400, "VALIDATION_ERROR"),
	get("/actor?__proto__[actorId]=x", "user", "actorId hidden in __proto__", 400, "VALIDATION_ERROR"),
	get("/actor?constructor[prototype][actorId]=x", "user", "actorId hidden in constructor.prototype", 400, "VALIDATION_ERROR"),
	get(`/actor?actorId=${NOBODY}&extra=1`, "user", "an unknown query parameter", 400, "VALIDATION_ERROR"),
	get(`/actor?actorId=${NOBODY}`, "none", "no token", 401, "UNAUTHORIZED"),
	get("/admin/features", "user", "a user who is not an administrator", 403, "FORBIDDEN"),
	get("/admin/features", "none", "no token", 401, "UNAUTHORIZED"),
	get("/admin/features/Upper", "admin", "an upper-case name", 400, "VALIDATION_ERROR"),
	get("/admin/features/%E0%A4%A", "admin", "a broken percent-encoding", 400, "VALIDATION_ERROR"),
	get("/admin/features/no.such.flag", "admin", "an unknown flag", 404, "FEATURE_NOT_FOUND"),
	get("/admin/features/no.such.flag", "user", "a user who is not an administrator", 403, "FORBIDDEN")
);

// ---- social sign-in: where the browser may be sent back, and the callback

const RETURN_TO: [string, string][] = [
	["an absolute URL", "https://evil.example/"],
	["a scheme-relative URL", "//evil.example/"],
	["a backslash host", "/\\evil.example/"],
	["only backslashes", "\\\\evil.example"],
	["a javascript: URL", "javascript:alert(1)"],
	["a relative path", "settings"],
	["an encoded line break", "/a\r\nSet-Cookie: x=1"],
	["a tab", "/a\tb"],
	["a NUL byte", "/a\u0000"],
	["a 2049-character path", `/${"a".repeat(2048)}`],
	["an empty value", ""]
];
for (const [label, value] of RETURN_TO) {
	add(get(`/auth/social/login?returnTo=${encodeURIComponent(value)}`, "none", `returnTo as ${label}`, 400, "VALIDATION_ERROR"));
}
add(
	get("/auth/social/login?returnTo=/a&returnTo=/b", "none", "returnTo twice", 400, "VALIDATION_ERROR"),
	get("/auth/social/login?returnTo[x]=/a", "none", "returnTo as an object", 400, "VALIDATION_ERROR"),
	get("/auth/social/login?redirect_uri=https://evil.example/", "none", "a redirect_uri of the caller's choosing", 400, "VALIDATION_ERROR")
);
const CALLBACK_QUERIES: [string, string][] = [
	["no parameters", ""],
	["a code without a state", "?code=abc"],
	["a state without a code", `?state=${randomToken(32)}`],
	["an unknown state", `?code=abc&state=${randomToken(32)}`],
	["a 300-character state", `?code=abc&state=${"s".repeat(300)}`],
	["a 5,000-character code", `?code=${"c".repeat(5000)}&state=${randomToken(32)}`],
	["two codes", `?code=a&code=b&state=${randomToken(32)}`],
	["a state as an object", "?code=a&state[x]=1"],
	["an error with markup", "?error=%3Cscript%3Ealert(1)%3C%2Fscript%3E&state=x"],
	["a state of __proto__", "?code=a&state=__proto__"],
	["a broken percent-encoding", "?code=%E0%A4%A&state=x"]
];
for (const [label, query] of CALLBACK_QUERIES) {
	add({ name: `GET /auth/social/login/callback: ${label}`, method: "GET", path: `/auth/social/login/callback${query}`, who: "none", uiRedirect: true });
}
add({
	name: "GET /auth/social/login/callback: a forged binding cookie",
	method: "GET",
	path: `/auth/social/login/callback?code=abc&state=${randomToken(32)}`,
	who: "none",
	headers: { cookie: `social_signin=${randomToken(32)}` },
	uiRedirect: true
});

// ---- resumes: multipart bodies that are wrong in every way but the right one

interface Part {
	name: string;
	value?: string | Buffer;
	filename?: string;
	type?: string;
}

const BOUNDARY = "corpus-boundary";
const MULTIPART = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };

function multipart(parts: Part[], boundary = BOUNDARY): Buffer {
	const chunks: Buffer[] = [];
	for (const p of parts) {
		const disposition = `form-data; name="${p.name}"${p.filename ? `; filename="${p.filename}"` : ""}`;
		chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${p.type ? `Content-Type: ${p.type}\r\n` : ""}\r\n`));
		chunks.push(Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value ?? ""));
		chunks.push(Buffer.from("\r\n"));
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return Buffer.concat(chunks);
}

const resumeFile = (value: Buffer, filename = "cv.pdf"): Part => ({ name: "resume", value, filename, type: "application/pdf" });
const upload = (name: string, body: (s: Setup) => Buffer, status: number, code?: string, opts: { who?: Who; headers?: Record<string, string> } = {}): Row => ({
	name: `POST /resumes: ${name}`,
	method: "POST",
	path: "/resumes",
	who: opts.who ?? "user",
	headers: opts.headers ?? MULTIPART,
	body: s => body(s).toString("latin1"),
	status,
	code
});
const own = (s: Setup): Part => ({ name: "candidateId", value: s.actorId });
add(
	upload("no content type", s => multipart([own(s), resumeFile(PDF)]), 415, "UNSUPPORTED_MEDIA_TYPE", { headers: {} }),
	upload("text/plain", s => multipart([own(s), resumeFile(PDF)]), 415, "UNSUPPORTED_MEDIA_TYPE", { headers: { "content-type": "text/plain" } }),
	upload("a JSON body", s => Buffer.from(json({ candidateId: s.actorId, resume: PDF.toString("base64") })), 415, "UNSUPPORTED_MEDIA_TYPE", { headers: JSON_TYPE }),
	upload("multipart without a boundary", s => multipart([own(s), resumeFile(PDF)]), 400, "VALIDATION_ERROR", { headers: { "content-type": "multipart/form-data" } }),
	upload("a boundary the body does not use", s => multipart([own(s), resumeFile(PDF)], "other-boundary"), 400),
	upload("a 300-character boundary", s => multipart([own(s), resumeFile(PDF)], "b".repeat(300)), 400, "VALIDATION_ERROR", {
		headers: { "content-type": `multipart/form-data; boundary=${"b".repeat(300)}` }
	}),
	upload("a body that is not multipart at all", () => Buffer.from("hello"), 400),
	upload("a body cut inside the file", s => multipart([own(s), resumeFile(PDF)]).subarray(0, 200), 400, "VALIDATION_ERROR"),
	upload("no file part", s => multipart([own(s)]), 400, "VALIDATION_ERROR"),
	upload("no parts at all", () => Buffer.from(`--${BOUNDARY}--\r\n`), 400, "VALIDATION_ERROR"),
	upload("the file before candidateId", s => multipart([resumeFile(PDF), own(s)]), 400, "VALIDATION_ERROR"),
	upload("a candidateId that is not a UUID", () => multipart([{ name: "candidateId", value: "../../etc" }, resumeFile(PDF)]), 400, "VALIDATION_ERROR"),
	upload("a candidateId over the field size", () => multipart([{ name: "candidateId", value: "c".repeat(2000) }, resumeFile(PDF)]), 400, "VALIDATION_ERROR"),
	upload("someone else's candidateId", () => multipart([{ name: "candidateId", value: NOBODY }, resumeFile(PDF)]), 403, "FORBIDDEN"),
	upload("a file part with another name", s => multipart([own(s), { ...resumeFile(PDF), name: "cv" }]), 400, "VALIDATION_ERROR"),
	upload("the resume as a text field", s => multipart([own(s), { name: "resume", value: "not a file" }]), 400, "VALIDATION_ERROR"),
	upload("an empty file", s => multipart([own(s), resumeFile(Buffer.alloc(0))]), 400, "VALIDATION_ERROR"),
	upload("a file over 10 MiB", s => multipart([own(s), resumeFile(Buffer.concat([PDF, Buffer.alloc(10 * MIB + 1, 0x20)]))]), 413, "PAYLOAD_TOO_LARGE"),
	upload("no token", s => multipart([own(s), resumeFile(PDF)]), 401, "UNAUTHORIZED", { who: "none" })
);
for (const [label, file] of REFUSED) add(upload(`${label} named cv.pdf`, s => multipart([own(s), resumeFile(file)]), 415, "UNSUPPORTED_MEDIA_TYPE"));

// ---- the webhook: SNS messages that are not SNS's

const WEBHOOK = "/notifications/webhooks/email-provider";
const sns = (s: Setup, overrides: Record<string, unknown> = {}) =>
	json({
		Type: "Notification",
		MessageId: "corpus-message",
		TopicArn: "arn:aws:sns:us-west-2:123456789012:ses-events",
		Message: json({ notificationType: "Delivery", mail: { messageId: "corpus" } }),
		Timestamp: new Date(0).toISOString(),
		SignatureVersion: "2",
		Signature: Buffer.alloc(256, 7).toString("base64"),
		SigningCertURL: `https://localhost:${s.closedPort}/SimpleNotificationService.pem`,
		...overrides
	});
const TEXT = { "content-type": "text/plain; charset=UTF-8" };
const hook = (name: string, body: Row["body"], status: number, code?: string, headers: Record<string, string> = TEXT): Row => ({
	name: `POST ${WEBHOOK}: ${name}`,
	method: "POST",
	path: WEBHOOK,
	who: "none",
	headers,
	body,
	status,
	code
});
add(
	hook("text that is not JSON", "hello", 400, "MALFORMED_JSON"),
	hook("malformed JSON sent as JSON", '{"Type":', 400, "MALFORMED_JSON", JSON_TYPE),
	hook("an empty object", "{}", 400, "VALIDATION_ERROR"),
	hook("an array", "[]", 400, "VALIDATION_ERROR"),
	hook("null", "null", 400, "VALIDATION_ERROR"),
	hook("a number as JSON", "42", 400, "VALIDATION_ERROR", JSON_TYPE),
	hook("an empty body", "", 400),
	hook("no Signature", s => json({ ...JSON.parse(sns(s)), Signature: undefined }), 400, "VALIDATION_ERROR"),
	hook("an unknown Type", s => sns(s, { Type: "Surprise" }), 400, "VALIDATION_ERROR"),
	hook("fields of the wrong type", s => sns(s, { MessageId: 1, Timestamp: [] }), 400, "VALIDATION_ERROR"),
	hook("an unknown signature version", s => sns(s, { SignatureVersion: "3" }), 403, "INVALID_SIGNATURE"),
	hook("a certificate over http", s => sns(s, { SigningCertURL: `http://localhost:${s.closedPort}/cert.pem` }), 403, "INVALID_SIGNATURE"),
	hook("a certificate on a foreign host", s => sns(s, { SigningCertURL: "https://evil.example/SimpleNotificationService.pem" }), 403, "INVALID_SIGNATURE"),
	hook("a certificate host with credentials", s => sns(s, { SigningCertURL: `https://user:pass@localhost:${s.closedPort}/cert.pem` }), 403, "INVALID_SIGNATURE"),
	hook("a certificate URL that is not .pem", s => sns(s, { SigningCertURL: `https://localhost:${s.closedPort}/cert.txt` }), 403, "INVALID_SIGNATURE"),
	{ ...hook("a certificate whose host does not answer", s => sns(s), 503, "UPSTREAM_UNAVAILABLE"), dependencyDown: true },
	hook("a subscription without SubscribeURL", s => sns(s, { Type: "SubscriptionConfirmation" }), 403, "INVALID_SIGNATURE"),
	hook("a subscription whose SubscribeURL is on a foreign host", s => sns(s, { Type: "SubscriptionConfirmation", SubscribeURL: "https://evil.example/confirm", Token: "t" }), 403, "INVALID_SIGNATURE"),
	hook("a __proto__ key", s => `{"__proto__":{"Type":"Notification"},${sns(s, { SigningCertURL: `https://localhost:${s.closedPort}/cert.txt` }).slice(1)}`, 403, "INVALID_SIGNATURE"),
	hook("invalid UTF-8", bytes('{"Type":"', [0xff], '"}'), 400, "MALFORMED_JSON"),
	hook("10,000 nested arrays", nestedArrays(10_000), 400, "VALIDATION_ERROR"),
	hook("text/html", s => sns(s), 415, "UNSUPPORTED_MEDIA_TYPE", { "content-type": "text/html" }),
	hook("no content type", Buffer.from("{}"), 415, "UNSUPPORTED_MEDIA_TYPE", {}),
	hook("a body over 1 MiB", s => sns(s, { Message: "m".repeat(MIB) }), 413, "PAYLOAD_TOO_LARGE")
);

// The SMS outcomes arrive the same way and are refused the same way.
const SMS_WEBHOOK = "/notifications/webhooks/sms-provider";
for (const r of rows.filter(r => r.path === WEBHOOK)) add({ ...r, name: r.name.replace(WEBHOOK, SMS_WEBHOOK), path: SMS_WEBHOOK });

// ---- push subscriptions and the VAPID key

/** Rows of a user's JSON request to one route: a name, a body and the answer it must get. */
const jsonRow =
	(method: string, path: string) =>
	(name: string, body: Row["body"], status: number, code: string, extra: Partial<Row> = {}): Row => ({
		name: `${method} ${path}: ${name}`,
		method,
		path,
		who: "user",
		headers: JSON_TYPE,
		body,
		status,
		code,
		...extra
	});

const SUBSCRIPTIONS = "/actors/{actorId}/push-subscriptions";
const P256DH = `BA${"A".repeat(85)}`;
const AUTH = "A".repeat(22);
const subscribe = jsonRow("POST", SUBSCRIPTIONS);
add(
	subscribe("an http endpoint", json({ endpoint: "http://push.example.com/x", keys: { p256dh: P256DH, auth: AUTH } }), 400, "VALIDATION_ERROR"),
	subscribe("an endpoint on the internal network", json({ endpoint: "https://169.254.169.254/latest", keys: { p256dh: P256DH, auth: AUTH } }), 400, "VALIDATION_ERROR"),
	subscribe("an endpoint that is no URL", json({ endpoint: "push service", keys: { p256dh: P256DH, auth: AUTH } }), 400, "VALIDATION_ERROR"),
	subscribe("an endpoint of 3,000 characters", json({ endpoint: `https://push.example.com/${"a".repeat(3000)}`, keys: { p256dh: P256DH, auth: AUTH } }), 400, "VALIDATION_ERROR"),
	subscribe("keys that are not base64url", json({ endpoint: "https://push.example.com/x", keys: { p256dh: "<script>", auth: "!!" } }), 400, "VALIDATION_ERROR"),
	subscribe("keys as a string", json({ endpoint: "https://push.example.com/x", keys: "p256dh" }), 400, "VALIDATION_ERROR"),
	subscribe("an empty object", "{}", 400, "VALIDATION_ERROR"),
	subscribe("an unknown field", json({ endpoint: "https://push.example.com/x", keys: { p256dh: P256DH, auth: AUTH }, owner: NOBODY }), 400, "VALIDATION_ERROR"),
	subscribe("another user's actor", json({ endpoint: "https://push.example.com/x", keys: { p256dh: P256DH, auth: AUTH } }), 403, "FORBIDDEN", { path: `/actors/${NOBODY}/push-subscriptions` }),
	subscribe("an actor id that is not a UUID", "{}", 400, "VALIDATION_ERROR", { path: "/actors/not-a-uuid/push-subscriptions" }),
	subscribe("no token", json({ endpoint: "https://push.example.com/x", keys: { p256dh: P256DH, auth: AUTH } }), 401, "UNAUTHORIZED", { who: "none" }),
	subscribe("text/plain", json({ endpoint: "https://push.example.com/x", keys: { p256dh: P256DH, auth: AUTH } }), 415, "UNSUPPORTED_MEDIA_TYPE", { headers: TEXT }),
	get(`/actors/${NOBODY}/push-subscriptions`, "user", "another user's actor", 403, "FORBIDDEN"),
	get("/actors/not-a-uuid/push-subscriptions", "user", "not a UUID", 400, "VALIDATION_ERROR"),
	get(`${SUBSCRIPTIONS}?extra=1`, "user", "an unknown query parameter", 400, "VALIDATION_ERROR"),
	{ name: `DELETE ${SUBSCRIPTIONS}/{id}: an unknown subscription`, method: "DELETE", path: `${SUBSCRIPTIONS}/${NOBODY}`, who: "user", status: 404, code: "NOT_FOUND" },
	{ name: `DELETE ${SUBSCRIPTIONS}/{id}: not a UUID`, method: "DELETE", path: `${SUBSCRIPTIONS}/not-a-uuid`, who: "user", status: 400, code: "VALIDATION_ERROR" },
	{ name: `DELETE ${SUBSCRIPTIONS}/{id}: another user's actor`, method: "DELETE", path: `/actors/${NOBODY}/push-subscriptions/${NOBODY}`, who: "user", status: 403, code: "FORBIDDEN" },
	get("/notifications/push/vapid-public-key?extra=1", "none", "an unknown query parameter", 400, "VALIDATION_ERROR")
);

// ---- outbound webhook endpoints (private addresses are refused here: no test switch)

const ENDPOINTS = "/webhook-endpoints";
const endpoint = jsonRow("POST", ENDPOINTS);
add(
	endpoint("an http url", json({ url: "http://example.com/hook" }), 400, "VALIDATION_ERROR"),
	endpoint("the cloud metadata address", json({ url: "https://169.254.169.254/latest/meta-data" }), 400, "VALIDATION_ERROR"),
	endpoint("a loopback name", json({ url: "https://localhost/hook" }), 400, "VALIDATION_ERROR"),
	endpoint("credentials in the url", json({ url: "https://user:pass@example.com/hook" }), 400, "VALIDATION_ERROR"),
	endpoint("a url that is no URL", json({ url: "hook" }), 400, "VALIDATION_ERROR"),
	endpoint("a url of 3,000 characters", json({ url: `https://example.com/${"a".repeat(3000)}` }), 400, "VALIDATION_ERROR"),
	endpoint("an unknown event type", json({ url: "https://example.com/hook", events: ["notification.nope"] }), 400, "VALIDATION_ERROR"),
	endpoint("events as a string", json({ url: "https://example.com/hook", events: "notification.sent" }), 400, "VALIDATION_ERROR"),
	endpoint("an unknown field", json({ url: "https://example.com/hook", owner: NOBODY }), 400, "VALIDATION_ERROR"),
	endpoint("an empty object", "{}", 400, "VALIDATION_ERROR"),
	endpoint("no token", json({ url: "https://example.com/hook" }), 401, "UNAUTHORIZED", { who: "none" }),
	endpoint("text/plain", json({ url: "https://example.com/hook" }), 415, "UNSUPPORTED_MEDIA_TYPE", { headers: TEXT }),
	get(`${ENDPOINTS}?extra=1`, "user", "an unknown query parameter", 400, "VALIDATION_ERROR"),
	{ name: `DELETE ${ENDPOINTS}/{id}: an unknown endpoint`, method: "DELETE", path: `${ENDPOINTS}/${NOBODY}`, who: "user", status: 404, code: "NOT_FOUND" },
	{ name: `DELETE ${ENDPOINTS}/{id}: not a UUID`, method: "DELETE", path: `${ENDPOINTS}/not-a-uuid`, who: "user", status: 400, code: "VALIDATION_ERROR" }
);

// ---- one-click unsubscribe, preferences, the operators' suppression list

const FORM = { "content-type": "application/x-www-form-urlencoded" };
const forged = `${Buffer.from(JSON.stringify({ v: 1, k: "nokey", c: "EMAIL", a: "a@example.com", g: "news" })).toString("base64url")}.${"A".repeat(43)}`;
const unsubscribe = (name: string, token: string, status: number, code: string, extra: Partial<Row> = {}): Row => ({
	name: `POST /unsubscribe/{token}: ${name}`,
	method: "POST",
	path: `/unsubscribe/${token}`,
	who: "none",
	headers: FORM,
	body: "List-Unsubscribe=One-Click",
	status,
	code,
	...extra
});
const PREFERENCES = "/actors/{actorId}/preferences";
const prefs = jsonRow("PUT", PREFERENCES);
add(
	unsubscribe("a token signed by no key", forged, 400, "INVALID_UNSUBSCRIBE_TOKEN"),
	unsubscribe("a token that is not one", "not-a-token", 400, "INVALID_UNSUBSCRIBE_TOKEN"),
	unsubscribe("a token of 2,000 characters", "a".repeat(2000), 400, "VALIDATION_ERROR"),
	unsubscribe("another body", forged, 400, "VALIDATION_ERROR", { body: "List-Unsubscribe=Yes" }),
	unsubscribe("extra form fields", forged, 400, "VALIDATION_ERROR", { body: "List-Unsubscribe=One-Click&address=x@example.com" }),
	unsubscribe("a JSON body", forged, 415, "UNSUPPORTED_MEDIA_TYPE", { headers: JSON_TYPE, body: "{}" }),
	get(`/unsubscribe/${forged}`, "none", "a token signed by no key", 400, "INVALID_UNSUBSCRIBE_TOKEN"),
	prefs("items that are not a list", json({ items: "EMAIL" }), 400, "VALIDATION_ERROR"),
	{
		...prefs("an unknown channel", json({ items: [{ channel: "FAX", category: "news", enabled: false }] }), 400, "VALIDATION_ERROR"),
		fieldProblem: { field: "items[0].channel", message: "The 'items[0].channel' field must be one of: EMAIL, SMS, PUSH, IN_APP." }
	},
	prefs("an SMS item (an actor has no number)", json({ items: [{ channel: "SMS", category: "news", enabled: false }] }), 400, "VALIDATION_ERROR"),
	prefs("a category with spaces", json({ items: [{ channel: "EMAIL", category: "my news", enabled: false }] }), 400, "VALIDATION_ERROR"),
	prefs("enabled as a string", json({ items: [{ channel: "EMAIL", category: "news", enabled: "no" }] }), 400, "VALIDATION_ERROR"),
	prefs("one channel and category twice", json({ items: [{ channel: "EMAIL", category: "news", enabled: false }, { channel: "EMAIL", category: "news", enabled: true }] }), 400, "VALIDATION_ERROR"),
	prefs("an EMAIL item while the actor's address is not verified", json({ items: [{ channel: "EMAIL", category: "news", enabled: false }] }), 403, "EMAIL_NOT_VERIFIED"),
	prefs("another user's actor", json({ items: [] }), 403, "FORBIDDEN", { path: `/actors/${NOBODY}/preferences` }),
	prefs("no token", json({ items: [] }), 401, "UNAUTHORIZED", { who: "none" }),
	get(`/actors/${NOBODY}/preferences`, "user", "another user's actor", 403, "FORBIDDEN"),
	get("/admin/suppressions", "user", "a user who is no administrator", 403, "FORBIDDEN"),
	get("/admin/suppressions?address=", "admin", "an empty address", 400, "VALIDATION_ERROR"),
	{
		name: "DELETE /admin/suppressions/{channel}/{address}: an unknown channel",
		method: "DELETE",
		path: "/admin/suppressions/FAX/a@example.com",
		who: "admin",
		status: 400,
		code: "VALIDATION_ERROR",
		fieldProblem: { field: "channel", message: "The 'channel' field must be one of: EMAIL, SMS, PUSH, IN_APP." }
	},
	{ name: "DELETE /admin/suppressions/{channel}/{address}: not suppressed", method: "DELETE", path: "/admin/suppressions/EMAIL/nobody@example.com", who: "admin", status: 404, code: "NOT_FOUND" },
	get("/admin/unsubscribes", "user", "a user who is no administrator", 403, "FORBIDDEN"),
	get("/admin/unsubscribes?address=", "admin", "an empty address", 400, "VALIDATION_ERROR"),
	{ name: "DELETE /admin/unsubscribes/{channel}/{address}/{category}: an unknown channel", method: "DELETE", path: "/admin/unsubscribes/FAX/a@example.com/news", who: "admin", status: 400, code: "VALIDATION_ERROR" },
	{ name: "DELETE /admin/unsubscribes/{channel}/{address}/{category}: a category with spaces", method: "DELETE", path: "/admin/unsubscribes/EMAIL/a@example.com/my%20news", who: "admin", status: 400, code: "VALIDATION_ERROR" },
	{ name: "DELETE /admin/unsubscribes/{channel}/{address}/{category}: not unsubscribed", method: "DELETE", path: "/admin/unsubscribes/EMAIL/nobody@example.com/news", who: "admin", status: 404, code: "NOT_FOUND" }
);

// ---- health, unknown routes, wrong methods

const any = (method: string, p: string, name: string, status: number, code: string, who: Who = "user", headers?: Record<string, string>): Row => ({ name: `${method} ${p}: ${name}`, method, path: p, who, status, code, headers });
add(
	any("POST", "/health/live", "a method the route does not have", 404, "NOT_FOUND", "none"),
	any("PUT", "/health/ready", "a method the route does not have", 404, "NOT_FOUND", "none"),
	any("GET", "/health", "the bare prefix", 404, "NOT_FOUND", "none"),
	any("GET", "/health/live/extra", "a longer path", 404, "NOT_FOUND", "none"),
	any("POST", "/.well-known/jwks.json", "a method the route does not have", 404, "NOT_FOUND", "none"),
	any("GET", "/", "the root", 404, "NOT_FOUND", "none"),
	any("GET", "/no/such/route", "an unknown route", 404, "NOT_FOUND"),
	any("GET", "/auth/unknown", "an unknown auth route", 404, "NOT_FOUND", "none"),
	any("GET", "/auth/social/unknown", "an unknown social route", 404, "NOT_FOUND", "none"),
	any("GET", "/~node/list", "Moleculer's internal node service", 404, "NOT_FOUND"),
	any("GET", "/api/list-aliases", "moleculer-web's alias listing", 404, "NOT_FOUND"),
	any("GET", "/auth/login", "a GET on a POST route", 404, "NOT_FOUND", "none"),
	any("PUT", "/auth/register", "a PUT on a POST route", 404, "NOT_FOUND", "none"),
	any("DELETE", "/actors/{actorId}", "a DELETE", 404, "NOT_FOUND"),
	any("POST", "/actors/{actorId}", "a POST on a GET route", 404, "NOT_FOUND"),
	any("PATCH", "/templates/{templateId}", "a PATCH", 404, "NOT_FOUND", "admin"),
	any("PUT", "/notifications", "a PUT on a POST route", 404, "NOT_FOUND"),
	any("PATCH", "/notifications/{notificationId}", "a PATCH", 404, "NOT_FOUND"),
	any("DELETE", "/notifications/not-a-uuid", "a cancel of a malformed id", 400, "VALIDATION_ERROR"),
	any("GET", "/notifications?limit=abc", "a listing with a limit that is not a number", 400, "VALIDATION_ERROR"),
	any("GET", "/notifications?cursor=%00%01", "a listing with a cursor that is not one", 400, "VALIDATION_ERROR"),
	any("GET", "/resumes", "a GET on a POST route", 404, "NOT_FOUND"),
	any("PUT", "/resumes/{documentId}", "a PUT on a GET route", 404, "NOT_FOUND"),
	any("DELETE", "/admin/features/corpus.flag", "a DELETE", 404, "NOT_FOUND", "admin"),
	any("OPTIONS", "/auth/login", "a CORS preflight with no allowed origins", 404, "NOT_FOUND", "none", { origin: "https://evil.example", "access-control-request-method": "POST" }),
	any("OPTIONS", "/notifications", "a preflight that would run an action", 404, "NOT_FOUND", "user", { origin: "https://evil.example", "access-control-request-method": "POST" }),
	any("OPTIONS", "/actors/{actorId}", "a plain OPTIONS", 404, "NOT_FOUND")
);

// ---- HTTP that fetch will not send: line breaks and control characters in headers, framing tricks

const loginRequest = (headers: string, body = "{}") =>
	`POST /auth/login HTTP/1.1\r\nHost: corpus\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`;
const notificationRequest = (s: Setup, headers: string, body = "{}") =>
	`POST /notifications HTTP/1.1\r\nHost: corpus\r\nAuthorization: Bearer ${s.userTokens.accessToken}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${headers}Connection: close\r\n\r\n${body}`;
const raw = (name: string, request: (s: Setup) => string | Buffer, status: number, code: string, absentHeaders?: string[]): Row => ({
	name: `raw HTTP: ${name}`,
	method: "RAW",
	path: "",
	who: "none",
	raw: request,
	status,
	code,
	absentHeaders
});
add(
	raw("X-Request-Id followed by an injected Set-Cookie line", () => loginRequest("X-Request-Id: abc\r\nSet-Cookie: injected=1\r\n"), 400, "VALIDATION_ERROR", ["injected=1"]),
	raw("a bare line feed in X-Request-Id", () => loginRequest("X-Request-Id: abc\nInjected: 1\r\n"), 400, "VALIDATION_ERROR", ["injected: 1"]),
	raw("a bare carriage return in X-Request-Id", () => loginRequest("X-Request-Id: abc\rInjected: 1\r\n"), 400, "VALIDATION_ERROR", ["injected: 1"]),
	raw("a folded X-Request-Id", () => loginRequest("X-Request-Id: abc\r\n Injected: 1\r\n"), 400, "VALIDATION_ERROR", ["injected: 1"]),
	raw("a NUL byte in X-Request-Id", () => loginRequest("X-Request-Id: ab\u0000c\r\n"), 400, "VALIDATION_ERROR"),
	raw(
		"bytes outside ASCII in X-Request-Id",
		() => bytes("POST /auth/login HTTP/1.1\r\nHost: corpus\r\nContent-Type: application/json\r\nContent-Length: 2\r\nX-Request-Id: ab", [0xff, 0xfe], "\r\nConnection: close\r\n\r\n{}"),
		400,
		"VALIDATION_ERROR"
	),
	raw("Idempotency-Key followed by an injected header", s => notificationRequest(s, "Idempotency-Key: k1\r\nX-Injected: 1\r\n"), 400, "VALIDATION_ERROR", ["x-injected: 1"]),
	raw("a bare line feed in Idempotency-Key", s => notificationRequest(s, "Idempotency-Key: k1\nX-Injected: 1\r\n"), 400, "VALIDATION_ERROR", ["x-injected: 1"]),
	raw("a NUL byte in Idempotency-Key", s => notificationRequest(s, "Idempotency-Key: k\u00001\r\n"), 400, "VALIDATION_ERROR"),
	raw("a header name with a space", () => loginRequest("Bad Header: x\r\n"), 400, "VALIDATION_ERROR"),
	raw("Content-Length and Transfer-Encoding together", () => "POST /auth/login HTTP/1.1\r\nHost: corpus\r\nContent-Type: application/json\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n", 400, "VALIDATION_ERROR"),
	raw("two different Content-Lengths", () => "POST /auth/login HTTP/1.1\r\nHost: corpus\r\nContent-Type: application/json\r\nContent-Length: 2\r\nContent-Length: 3\r\nConnection: close\r\n\r\n{}", 400, "VALIDATION_ERROR"),
	raw("a Content-Length that is not a number", () => "POST /auth/login HTTP/1.1\r\nHost: corpus\r\nContent-Type: application/json\r\nContent-Length: two\r\nConnection: close\r\n\r\n{}", 400, "VALIDATION_ERROR"),
	raw("a request line with a space in the path", () => "GET /health/live x HTTP/1.1\r\nHost: corpus\r\nConnection: close\r\n\r\n", 400, "VALIDATION_ERROR"),
	raw("TRACE, which fetch will not send", () => "TRACE /health/live HTTP/1.1\r\nHost: corpus\r\nConnection: close\r\n\r\n", 404, "NOT_FOUND"),
	raw("a path that climbs directories", () => "GET /actors/../../etc/passwd HTTP/1.1\r\nHost: corpus\r\nConnection: close\r\n\r\n", 404, "NOT_FOUND"),
	raw("32 KiB of headers", () => loginRequest(`X-Filler: ${"f".repeat(32 * 1024)}\r\n`), 431, "PAYLOAD_TOO_LARGE"),
	raw("a 20,000-character URL", () => `GET /actors/${"a".repeat(20_000)} HTTP/1.1\r\nHost: corpus\r\nConnection: close\r\n\r\n`, 431, "PAYLOAD_TOO_LARGE"),
	raw("an Authorization header of 1,000 tokens", s => `GET /actors/${NOBODY} HTTP/1.1\r\nHost: corpus\r\nAuthorization: Bearer ${s.userTokens.accessToken.repeat(1000).slice(0, 60_000)}\r\nConnection: close\r\n\r\n`, 431, "PAYLOAD_TOO_LARGE")
);

// ---- running the table

function fill(template: string, s: Setup): string {
	return template
		.replace("{actorId}", s.actorId)
		.replace("{templateId}", s.templateId)
		.replace("{documentId}", s.documentId)
		.replace("{notificationId}", s.notificationId);
}

interface Answer {
	status: number;
	header(name: string): string | null;
	headerLines: string[];
	text: string;
}

/**
 * Everything the platform keeps: every collection's documents, the uploaded files and the
 * outbox. The one record a refused request leaves by design is left out: a wrong password
 * of an existing account is audited (auth.sign_in_failed) and counted toward its lockout.
 */
async function snapshot(p: Platform): Promise<Record<string, unknown>> {
	const store = runtime(p).store();
	const out: Record<string, unknown> = {};
	for (const name of Object.keys(SCHEMA)) {
		if (name === "login_guards") continue;
		out[name] = await store.collection(name).find(name === "audit_events" ? { type: { $ne: "auth.sign_in_failed" } } : {}, { sort: { id: 1 } });
	}
	for (const dir of ["files", "outbox"]) {
		const full = path.join(p.dataDir, dir);
		out[`${dir}/`] = fs.existsSync(full) ? fs.readdirSync(full, { recursive: true }).map(String).sort() : [];
	}
	return out;
}

describe("the bad-input corpus", () => {
	const provider = new MockProvider();
	let p: Platform;
	let s: Setup;
	let before: Record<string, unknown>;

	beforeAll(async () => {
		await provider.start();
		const port = await freePort();
		p = await startPlatform({
			PORT: String(port),
			BOOTSTRAP_ADMIN_EMAIL: "root@example.com",
			BOOTSTRAP_ADMIN_PASSWORD: "Root-Passw0rd",
			SOCIAL_OAUTH2_CLIENT_ID: "corpus-client",
			SOCIAL_OAUTH2_CLIENT_SECRET: "corpus-client-secret",
			SOCIAL_OAUTH2_ISSUER: provider.issuer,
			SOCIAL_OAUTH2_REDIRECT_URI: `http://127.0.0.1:${port}/auth/social/login/callback`,
			OAUTH2_REFRESH_TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 3).toString("base64"),
			UI_BASE_URL: UI,
			UI_CALLBACK_PATH: UI_PATH,
			SNS_SIGNING_CERT_HOST_PATTERN: "^localhost:\\d+$",
			RATE_LIMIT_LOGIN_PER_IP: "1000000",
			RATE_LIMIT_LOGIN_PER_USER: "1000000",
			RATE_LIMIT_REGISTER_PER_IP: "1000000",
			RATE_LIMIT_REGISTER_PER_USER: "1000000",
			RATE_LIMIT_REFRESH_PER_IP: "1000000",
			RATE_LIMIT_EXCHANGE_PER_IP: "1000000"
		});
		const user = newUser();
		const reg = await http(p.baseUrl, "POST", "/auth/register", { json: user });
		expect(reg.status).toBe(201);
		const admin = await http(p.baseUrl, "POST", "/auth/login", { json: { username: "root@example.com", password: "Root-Passw0rd" } });
		expect(admin.status).toBe(200);
		const template = await http(p.baseUrl, "POST", "/templates", { token: admin.body.accessToken, json: { name: "setup", subject: "s", text: "t" } });
		expect(template.status).toBe(201);
		const form = new FormData();
		form.append("candidateId", reg.body.actorId);
		form.append("resume", new Blob([PDF], { type: "application/pdf" }), "cv.pdf");
		const document = await http(p.baseUrl, "POST", "/resumes", { token: reg.body.accessToken, body: form });
		expect(document.status).toBe(201);
		const flagSet = await http(p.baseUrl, "PUT", "/admin/features/corpus.flag", { token: admin.body.accessToken, json: { enabled: true } });
		expect(flagSet.status).toBe(200);
		const sent = await http(p.baseUrl, "POST", "/notifications", { token: admin.body.accessToken, json: { to: "setup@example.com", templateId: template.body.templateId } });
		expect(sent.status).toBe(201);
		const notifications = runtime(p).store().collection<{ id: string; status: string }>("notifications");
		await waitFor("the setup notification to be sent", async () => (await notifications.get(sent.body.notificationId))?.status === "SENT");
		s = {
			user,
			userTokens: reg.body,
			adminTokens: admin.body,
			actorId: reg.body.actorId,
			templateId: template.body.templateId,
			documentId: document.body.documentId,
			notificationId: sent.body.notificationId,
			closedPort: await freePort()
		};
		before = await snapshot(p);
	}, 60_000);

	afterAll(async () => {
		await p?.stop();
		await provider.stop();
	});

	it("should hold at least 200 rows", () => {
		expect(rows.length).toBeGreaterThanOrEqual(200);
		expect(new Set(rows.map(r => r.name)).size).toBe(rows.length);
	});

	async function send(row: Row): Promise<Answer> {
		if (row.raw) {
			const res = await rawRequest(p.baseUrl, row.raw(s), DEADLINE_MS);
			return {
				status: res.status,
				header: name => res.headers.get(name)?.join(", ") ?? null,
				headerLines: [...res.headers].flatMap(([k, vs]) => vs.map(v => `${k}: ${v}`.toLowerCase())),
				text: res.body
			};
		}
		const headers: Record<string, string> = { ...(row.headers ?? {}) };
		if (row.who !== "none") headers.authorization = `Bearer ${(row.who === "admin" ? s.adminTokens : s.userTokens).accessToken}`;
		const body = typeof row.body === "function" ? Buffer.from(row.body(s), "latin1") : row.body;
		const res = await fetch(p.baseUrl + fill(row.path, s), {
			method: row.method,
			headers,
			body: typeof body === "string" ? Buffer.from(body) : body,
			redirect: "manual",
			signal: AbortSignal.timeout(DEADLINE_MS)
		});
		return { status: res.status, header: name => res.headers.get(name), headerLines: [...res.headers].map(([k, v]) => `${k}: ${v}`.toLowerCase()), text: await res.text() };
	}

	it.each(rows.map(r => [r.name, r] as const))("should answer %s with a client error and nothing else", async (_name, row) => {
		const res = await send(row);
		const secrets = [CORPUS_PASSWORD, FAKE_REFRESH, FAKE_TEMPORARY, s.user.password, s.userTokens.refreshToken, s.adminTokens.refreshToken];
		for (const secret of secrets) expect(res.text).not.toContain(secret);
		expect(res.text.length).toBeLessThan(4096);
		expect(res.header("x-content-type-options")).toBe("nosniff");
		for (const line of row.absentHeaders ?? []) expect(res.headerLines.filter(l => l.includes(line))).toEqual([]);

		if (row.uiRedirect) {
			expect(res.status).toBe(302);
			expect(res.header("cache-control")).toBe("no-store");
			const location = new URL(res.header("location")!);
			expect(location.origin + location.pathname).toBe(UI + UI_PATH);
			expect([...location.searchParams.keys()]).toEqual(["error"]);
			expect(SOCIAL_ERROR_CODES).toContain(location.searchParams.get("error"));
			return;
		}

		if (row.dependencyDown) {
			expect(res.status).toBe(503);
			expect(res.header("retry-after")).toBeTruthy();
		} else {
			expect(res.status).toBeGreaterThanOrEqual(400);
			expect(res.status).toBeLessThan(500);
		}
		if (row.status) expect(res.status).toBe(row.status);
		expect(res.header("content-type")).toBe(PROBLEM);
		const problem = JSON.parse(res.text);
		expect(problem).toEqual({
			type: expect.stringMatching(/^urn:auth-notify:problem:[a-z-]+$/),
			title: expect.any(String),
			status: res.status,
			detail: expect.any(String),
			code: expect.any(String),
			requestId: res.header("x-request-id"),
			...(problem.errors ? { errors: expect.any(Array) } : {})
		});
		expect(ERROR_CODES).toContain(problem.code);
		if (row.code) expect(problem.code).toBe(row.code);
		if (row.fieldProblem) expect(problem.errors).toContainEqual(row.fieldProblem);
		// fastest-validator's own enum message puts the allowed values where the rejected one belongs (lib/problem.ts).
		for (const e of problem.errors ?? []) expect(e.message).not.toMatch(/does not match any of the allowed values/);
		// RFC 9110: every 401 carries a challenge; invalid_token only when a Bearer token was sent and refused (RFC 6750).
		const challenge = res.header("www-authenticate");
		if (res.status !== 401) expect(challenge).toBeNull();
		else if (row.raw) expect(challenge).toMatch(/^Bearer realm="auth-notify"/);
		else {
			const bearerSent = row.who !== "none" || /^Bearer +\S/i.test(row.headers?.authorization ?? "");
			expect(challenge).toBe(bearerSent && problem.code === "UNAUTHORIZED" ? `Bearer realm="auth-notify", error="invalid_token", error_description="${problem.detail}"` : 'Bearer realm="auth-notify"');
		}
	});

	it("should leave the store, the uploaded files and the outbox as the setup left them", async () => {
		expect(await snapshot(p)).toEqual(before);
	});
});
