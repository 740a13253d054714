/**
 * The gateway's requests and responses, each of one shape from the moment Node makes
 * it (node:http's documented `IncomingMessage` and `ServerResponse` server options).
 *
 * moleculer-web and the gateway hang their state on every request and response as it
 * passes (req.$ctx, req.$route, req.$principal, res.locals, ...): 15 properties on a
 * plain authenticated read, more on others, in an order that depends on the route.
 * Each one added to an object that lacks it moves the object to another hidden class
 * in V8, so the same code (Node's header getter, moleculer-web's handlers, the
 * gateway's hooks) saw requests of many shapes and looked their properties up in a
 * global cache instead of a fixed offset (a callgrind count, bench/instructions.ts).
 * Declared here, every request and every response keeps one shape all the way, and
 * the stores are plain writes. Nothing else changes: the values start as undefined,
 * as reading a property that was never set gives (`'body' in req` holds now, which
 * body-parser reads only to decide whether to set it to undefined).
 */
import { IncomingMessage, ServerResponse } from "node:http";
import type { Req } from "./types";

export class GatewayRequest extends IncomingMessage {
	// moleculer-web's (httpHandler, the rest action, routeHandler, aliasHandler), in its order.
	$startTime: unknown = undefined;
	$service: Req["$service"] = undefined;
	$next: unknown = undefined;
	$ctx: Req["$ctx"] = undefined;
	originalUrl: Req["originalUrl"] = undefined;
	parsedUrl: Req["parsedUrl"] = undefined;
	query: Req["query"] = undefined;
	baseUrl: unknown = undefined;
	$route: unknown = undefined;
	// body-parser's.
	body: Req["body"] = undefined;
	$params: Req["$params"] = undefined;
	$alias: Req["$alias"] = undefined;
	$endpoint: unknown = undefined;
	$action: unknown = undefined;
	// The gateway's (authenticate, the live-stream hook, observe.ts; the drain stamps $began for the access log).
	$principal: Req["$principal"] = undefined;
	$live: Req["$live"] = undefined;
	$span: Req["$span"] = undefined;
	$began: Req["$began"] = undefined;
}

export class GatewayResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
	// moleculer-web's.
	$service: unknown = undefined;
	locals: unknown = undefined;
	$ctx: unknown = undefined;
	$route: unknown = undefined;
	// Node keeps statusCode (and statusMessage) on the prototype until a response sets
	// them, in whichever order the answering code does; with statusCode its own from the
	// start, statusMessage is the one property added later, always last (writeHead).
	override statusCode = 200;
}

/** The options for http.createServer. */
export const GATEWAY_HTTP_OBJECTS = { IncomingMessage: GatewayRequest, ServerResponse: GatewayResponse } as const;
