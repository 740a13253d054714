/**
 * The Cognito auth-challenge triggers that let social sign-in obtain tokens without a
 * password. Cognito itself (and cognito-local, which has no CUSTOM_AUTH) cannot run
 * here, so the events are built as Cognito documents them.
 */
import {
	CHALLENGE_METADATA,
	CUSTOM_CHALLENGE,
	NONCE_PARAMETER,
	customAuthAnswer,
	customAuthTriggers,
	type ChallengeResult,
	type CustomAuthEvent
} from "../../lib/idp/cognito-custom-auth";

const SECRET = "s".repeat(40);
const USER = "9f1c2d3e-0000-4000-8000-000000000001";
const handler = customAuthTriggers(SECRET);

function event(triggerSource: string, request: CustomAuthEvent["request"] = {}, userName = USER): CustomAuthEvent {
	return { triggerSource, userName, request, response: {} };
}

const define = (session: ChallengeResult[], extra: CustomAuthEvent["request"] = {}) =>
	handler(event("DefineAuthChallenge_Authentication", { session, ...extra }));

async function challenge(): Promise<{ nonce: string; metadata: string }> {
	const created = await handler(event("CreateAuthChallenge_Authentication", { challengeName: CUSTOM_CHALLENGE }));
	return { nonce: created.response.publicChallengeParameters![NONCE_PARAMETER], metadata: created.response.challengeMetadata! };
}

async function verify(answer: string | undefined, nonce: string, userName = USER): Promise<boolean | undefined> {
	const res = await handler(
		event(
			"VerifyAuthChallengeResponse_Authentication",
			{ challengeAnswer: answer, privateChallengeParameters: { [NONCE_PARAMETER]: nonce } },
			userName
		)
	);
	return res.response.answerCorrect;
}

describe("Cognito custom-auth triggers", () => {
	it("should pose one custom challenge and issue tokens when the platform's answer passes", async () => {
		expect((await define([])).response).toEqual({ challengeName: CUSTOM_CHALLENGE, issueTokens: false, failAuthentication: false });
		const { nonce, metadata } = await challenge();
		const answer = customAuthAnswer(SECRET, USER, nonce);

		const correct = await verify(answer, nonce);
		const done = await define([{ challengeName: CUSTOM_CHALLENGE, challengeResult: correct!, challengeMetadata: metadata }]);

		expect(correct).toBe(true);
		expect(done.response).toEqual({ issueTokens: true, failAuthentication: false });
	});

	it("should hand out a fresh 256-bit nonce, public and private alike, for every challenge", async () => {
		const first = await handler(event("CreateAuthChallenge_Authentication", { challengeName: CUSTOM_CHALLENGE }));
		const second = await challenge();

		expect(first.response.publicChallengeParameters).toEqual(first.response.privateChallengeParameters);
		expect(Buffer.from(first.response.publicChallengeParameters![NONCE_PARAMETER], "base64url")).toHaveLength(32);
		expect(second.nonce).not.toBe(first.response.publicChallengeParameters![NONCE_PARAMETER]);
	});

	it.each([
		["another challenge's nonce (a replayed answer)", () => customAuthAnswer(SECRET, USER, "an-earlier-nonce")],
		["another user's answer", () => customAuthAnswer(SECRET, "someone-else", "N")],
		["an answer under another secret", () => customAuthAnswer("x".repeat(40), USER, "N")],
		["no answer", () => undefined],
		["the nonce itself", () => "N"]
	])("should reject %s", async (_label, answer) => {
		await expect(verify(answer(), "N")).resolves.toBe(false);
	});

	it.each([
		["the answer was wrong", [{ challengeName: CUSTOM_CHALLENGE, challengeResult: false, challengeMetadata: CHALLENGE_METADATA }]],
		["the challenge is not the platform's", [{ challengeName: CUSTOM_CHALLENGE, challengeResult: true }]],
		["another kind of challenge passed", [{ challengeName: "SRP_A", challengeResult: true, challengeMetadata: CHALLENGE_METADATA }]],
		[
			"more than one challenge was answered",
			[
				{ challengeName: CUSTOM_CHALLENGE, challengeResult: false, challengeMetadata: CHALLENGE_METADATA },
				{ challengeName: CUSTOM_CHALLENGE, challengeResult: true, challengeMetadata: CHALLENGE_METADATA }
			]
		]
	])("should fail the authentication without tokens when %s", async (_label, session) => {
		expect((await define(session)).response).toEqual({ issueTokens: false, failAuthentication: true });
	});

	it("should fail the authentication when the user does not exist", async () => {
		expect((await define([], { userNotFound: true })).response).toEqual({ issueTokens: false, failAuthentication: true });
	});

	it("should refuse an unknown trigger and a short secret", async () => {
		await expect(handler(event("PreSignUp_SignUp"))).rejects.toThrow("Unexpected trigger");
		expect(() => customAuthTriggers("short")).toThrow("at least 32");
	});
});
