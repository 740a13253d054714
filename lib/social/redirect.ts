/**
 * Where a social sign-in sends the browser when it ends: the UI's callback address,
 * from configuration only (no caller chooses where a browser goes), with the browser
 * binding cleared. Success and every failure, whether the auth service or the
 * gateway answers, are built here.
 */
import type { Config } from "../config";
import { toProblem } from "../errors/problem";
import { SocialFailure, type SocialErrorCode } from "./failure";
import { clearedBindingCookie } from "./state";

export interface Redirect {
	location: string;
	/** Set-Cookie: the browser binding on start, its removal on finish. */
	cookie: string;
}

export interface SocialLogger {
	warn(...args: unknown[]): void;
	error(...args: unknown[]): void;
}

export type UiConfig = Pick<Config, "uiBaseUrl" | "uiCallbackPath" | "social">;

export function uiCallbackUrl(config: UiConfig, query: Record<string, string>): string {
	const u = new URL(config.uiBaseUrl + config.uiCallbackPath);
	for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
	return u.href;
}

/** The end of a sign-in: to the UI, binding cookie cleared. */
export function uiRedirect(config: UiConfig, query: Record<string, string>): Redirect {
	return { location: uiCallbackUrl(config, query), cookie: clearedBindingCookie(config.social.redirectUri) };
}

/** Headers of every sign-in redirect besides Location. The addresses carry codes and states: no cache, no referrer. */
export function redirectHeaders(redirect: Redirect): Record<string, string> {
	return { "Set-Cookie": redirect.cookie, "Cache-Control": "no-store", "Referrer-Policy": "no-referrer" };
}

/** Other errors are classified as the API classifies them: a dependency that is down or busy is not this sign-in's fault. */
export function failureCode(err: unknown): SocialErrorCode {
	if (err instanceof SocialFailure) return err.code;
	const { status } = toProblem(err, "").problem;
	if (status === 400) return "INVALID_REQUEST";
	return status === 429 || status === 503 ? "SOCIAL_LOGIN_UNAVAILABLE" : "INTERNAL";
}

/**
 * A failed sign-in: its code for the UI, one log line and the redirect. Expected ends
 * and refused requests are warnings without details; anything else is an error
 * with them. `context` adds fields to the log line (a request id).
 */
export function failureRedirect(config: UiConfig, err: unknown, logger: SocialLogger, context: Record<string, unknown> = {}): Redirect {
	const code = failureCode(err);
	if (err instanceof SocialFailure) logger.warn("Social sign-in failed", { ...context, code, reason: err.reason });
	else if (code === "INVALID_REQUEST") logger.warn("Social sign-in failed", { ...context, code });
	else logger.error("Social sign-in failed", { ...context, code, err });
	return uiRedirect(config, { error: code });
}
