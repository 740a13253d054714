/**
 * Who stands behind a notification or template, and who may act on one: services and
 * administrators on any, a user on what it created. Others are told it does not exist.
 */
import type { Principal } from "../auth/rules";
import type { Creator } from "./model";

export function creatorOf(p: Principal): Creator {
	return p.kind === "user" ? { kind: "user", id: p.sub } : { kind: "service", id: p.serviceId };
}

export function mayAccess(p: Principal, owner: Creator): boolean {
	if (p.kind === "service" || p.isAdmin) return true;
	return owner.kind === "user" && owner.id === p.sub;
}

/** An actor's own things (push subscriptions): the actor itself, services and administrators. */
export function mayActFor(p: Principal, actorId: string): boolean {
	return p.kind === "service" || p.isAdmin || p.sub === actorId;
}
