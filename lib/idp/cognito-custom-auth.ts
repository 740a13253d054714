/**
 * Tokens without a password on Cognito, for social sign-in: the CUSTOM_AUTH flow with
 * one challenge that only the platform can answer.
 *
 * - DefineAuthChallenge asks for exactly one CUSTOM_CHALLENGE and issues tokens only
 *   when that challenge, and nothing else, was answered correctly.
 * - CreateAuthChallenge draws a random nonce for each attempt and hands it out.
 * - VerifyAuthChallengeResponse accepts HMAC-SHA256(secret, username + "\n" + nonce),
 *   compared in constant time.
 *
 * The secret (IDP_CUSTOM_AUTH_SECRET) is shared by the platform and the trigger
 * Lambda only. Because the nonce is new for every attempt, an answer that leaks
 * cannot be replayed, and a client that can start CUSTOM_AUTH without the secret
 * gets no tokens. customAuthTriggers() is the Lambda's handler; docs/cognito.md shows
 * how to deploy it.
 */
import { createHmac, randomBytes } from "node:crypto";
import { safeEqual } from "../crypto";

export const CUSTOM_CHALLENGE = "CUSTOM_CHALLENGE";
/** The public challenge parameter that carries the nonce. */
export const NONCE_PARAMETER = "nonce";
/** Marks our challenge in the session, so DefineAuthChallenge counts no other. */
export const CHALLENGE_METADATA = "PLATFORM_HMAC";

export function customAuthAnswer(secret: string, username: string, nonce: string): string {
	return createHmac("sha256", secret).update(`${username}\n${nonce}`).digest("base64url");
}

/** The fields of Cognito's trigger events that these triggers read and write. */
export interface ChallengeResult {
	challengeName: string;
	challengeResult: boolean;
	challengeMetadata?: string;
}

export interface CustomAuthEvent {
	triggerSource: string;
	userName: string;
	request: {
		userNotFound?: boolean;
		session?: ChallengeResult[];
		challengeName?: string;
		challengeAnswer?: string;
		privateChallengeParameters?: Record<string, string>;
	};
	response: {
		challengeName?: string;
		issueTokens?: boolean;
		failAuthentication?: boolean;
		publicChallengeParameters?: Record<string, string>;
		privateChallengeParameters?: Record<string, string>;
		challengeMetadata?: string;
		answerCorrect?: boolean;
	};
}

function define(event: CustomAuthEvent): void {
	const session = event.request.session ?? [];
	const fail = () => Object.assign(event.response, { issueTokens: false, failAuthentication: true });
	if (event.request.userNotFound) {
		fail();
		return;
	}
	if (session.length === 0) {
		Object.assign(event.response, { challengeName: CUSTOM_CHALLENGE, issueTokens: false, failAuthentication: false });
		return;
	}
	const [only] = session;
	const passed =
		session.length === 1 &&
		only.challengeName === CUSTOM_CHALLENGE &&
		only.challengeMetadata === CHALLENGE_METADATA &&
		only.challengeResult === true;
	if (passed) Object.assign(event.response, { issueTokens: true, failAuthentication: false });
	else fail();
}

function create(event: CustomAuthEvent): void {
	if (event.request.challengeName !== CUSTOM_CHALLENGE) return;
	const nonce = randomBytes(32).toString("base64url");
	event.response.publicChallengeParameters = { [NONCE_PARAMETER]: nonce };
	event.response.privateChallengeParameters = { [NONCE_PARAMETER]: nonce };
	event.response.challengeMetadata = CHALLENGE_METADATA;
}

function verify(secret: string, event: CustomAuthEvent): void {
	const nonce = event.request.privateChallengeParameters?.[NONCE_PARAMETER];
	const answer = event.request.challengeAnswer;
	event.response.answerCorrect =
		typeof nonce === "string" && typeof answer === "string" && safeEqual(answer, customAuthAnswer(secret, event.userName, nonce));
}

/** One Lambda handler for the pool's three auth-challenge triggers. */
export function customAuthTriggers(secret: string): (event: CustomAuthEvent) => Promise<CustomAuthEvent> {
	if (!secret || secret.length < 32) throw new Error("The custom-auth secret must be at least 32 characters");
	return async event => {
		switch (event.triggerSource) {
			case "DefineAuthChallenge_Authentication":
				define(event);
				break;
			case "CreateAuthChallenge_Authentication":
				create(event);
				break;
			case "VerifyAuthChallengeResponse_Authentication":
				verify(secret, event);
				break;
			default:
				throw new Error(`Unexpected trigger ${event.triggerSource}`);
		}
		return event;
	};
}
