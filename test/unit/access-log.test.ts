/**
 * The access log's line (services/api-gateway/access-log.ts): what it shows of a URL.
 * Path parameters named like credentials and every query value are replaced, whether
 * the request matched its alias or failed before (then the alias is looked up).
 * test/integration/access-log.test.ts reads the lines a running gateway writes.
 */
import { accessLine, loggedPath, REDACTED, type ResolveAlias } from "../../services/api-gateway/access-log";
import type { IndexedAlias } from "../../services/api-gateway/alias-index";
import type { Req, Res } from "../../services/api-gateway/types";

const alias = (fullPath: string) => ({ fullPath }) as IndexedAlias;
const UNSUBSCRIBE = alias("/unsubscribe/:token");
const NOTIFICATION = alias("/notifications/:notificationId");
const none: ResolveAlias = () => false;
const finds =
	(a: IndexedAlias): ResolveAlias =>
	() => ({ alias: a, params: {} });

describe("the path an access line shows", () => {
	it("should replace a path parameter named like a credential and keep the others", () => {
		expect(loggedPath("/unsubscribe/eyJzZWNyZXQ.sig", "GET", UNSUBSCRIBE, none)).toBe(`/unsubscribe/${REDACTED}`);
		expect(loggedPath("/unsubscribe/eyJzZWNyZXQ.sig/", "POST", UNSUBSCRIBE, none)).toBe(`/unsubscribe/${REDACTED}`);
		const id = "0190a0a0-0000-7000-8000-000000000000";
		expect(loggedPath(`/notifications/${id}`, "GET", NOTIFICATION, none)).toBe(`/notifications/${id}`);
	});

	it("should look the alias up for a request that failed before it matched (a body the parser refused)", () => {
		expect(loggedPath("/unsubscribe/secret-token", "POST", undefined, finds(UNSUBSCRIBE))).toBe(`/unsubscribe/${REDACTED}`);
	});

	it("should keep the names of query parameters and none of their values", () => {
		expect(loggedPath("/auth/social/login/callback?code=abc123&state=xyz&iss=https%3A%2F%2Fidp", "GET", undefined, none)).toBe(
			`/auth/social/login/callback?code=${REDACTED}&state=${REDACTED}&iss=${REDACTED}`
		);
		expect(loggedPath("/notifications?", "GET", undefined, none)).toBe("/notifications");
	});

	it("should replace a query name that does not look like one (a value sent without '=')", () => {
		expect(loggedPath(`/x?${"k".repeat(40)}&ok`, "GET", undefined, none)).toBe(`/x?${REDACTED}=${REDACTED}&ok=${REDACTED}`);
	});

	it("should cut a very long URL", () => {
		const line = loggedPath(`/${"a".repeat(5000)}`, "GET", undefined, none);
		expect(line.length).toBeLessThan(600);
	});
});

describe("an access line", () => {
	const res = (over: Partial<Res> & { header?: string }) =>
		({ headersSent: true, statusCode: 200, writableEnded: true, writableFinished: over.writableEnded ?? true, getHeader: () => over.header, ...over }) as unknown as Res;

	it("should give method, path, status, duration, request id and principal", () => {
		const req = { method: "GET", originalUrl: "/actors/a1?x=1", url: "/a1", $began: 100, $principal: { kind: "user", sub: "u-1" } } as unknown as Req;
		expect(accessLine(req, res({ header: "req-7" }), none, 112.34)).toEqual({ method: "GET", path: `/actors/a1?x=${REDACTED}`, status: 200, ms: 12.3, requestId: "req-7", principal: "user:u-1" });
	});

	it("should name a service by its service id and say when the answer did not go out in full", () => {
		const req = { method: "GET", url: "/notifications/n1/events", $began: 0, $principal: { kind: "service", sub: "s-1", serviceId: "billing" } } as unknown as Req;
		expect(accessLine(req, res({ writableEnded: false }), none, 5000)).toMatchObject({ status: 200, principal: "service:billing", incomplete: true });
		expect(accessLine(req, res({ headersSent: false, writableEnded: false }), none, 5000)).toMatchObject({ status: 499, incomplete: true });
	});
});
