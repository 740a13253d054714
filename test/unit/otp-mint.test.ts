/**
 * A one-time code is minted when the dispatcher sends its notification
 * (OneTimeCodes.mintAtSendTime). A CRITICAL notification is claimed at once, so the
 * dispatcher may ask before the challenge has recorded the notification's id: the
 * intake here sends at accept time, before accept() answers, which is the race that
 * made a fast dispatcher mail "(replaced by a newer code)" instead of the code. And a
 * resend still makes the earlier notifications' codes stale.
 */
import fs from "node:fs";
import { OneTimeCodes } from "../../lib/accounts/otp";
import type { IdentityProvider } from "../../lib/idp/types";
import type { AcceptRequest, NotificationIntake } from "../../lib/notifications";
import { createStore, type Store } from "../../lib/store";
import { tempDir, testConfig } from "../helpers/platform";

interface Sent {
	notificationId: string;
	channel: string;
	/** What the dispatcher's send made of the code at accept time. */
	code: string | null;
}

const dir = tempDir("an-otp-mint-");
let store: Store;
beforeAll(() => {
	store = createStore(testConfig({ DATA_DIR: dir }));
});
afterAll(async () => {
	await store.close();
	fs.rmSync(dir, { recursive: true, force: true });
});

/** Codes whose intake sends each notification before accept() answers, as a dispatcher woken at once may. */
function codesSendingAtAccept(): { otp: OneTimeCodes; sent: Sent[]; queued: AcceptRequest[] } {
	const sent: Sent[] = [];
	const queued: AcceptRequest[] = [];
	let seq = 0;
	const idp = { kind: "embedded", findProfileByEmail: async () => null } as unknown as IdentityProvider;
	const intake = {
		accept: async (req: AcceptRequest) => {
			const notificationId = `n-${++seq}`;
			queued.push(req);
			const minted = await otp.mintAtSendTime(req.lifecycle!.challengeId!, notificationId, req.channel, req.lifecycle);
			sent.push({ notificationId, channel: req.channel ?? "EMAIL", code: minted?.code ?? null });
			return { notificationId, created: true, status: "QUEUED" };
		}
	} as unknown as NotificationIntake;
	const otp: OneTimeCodes = new OneTimeCodes({ store: () => store, idp: async () => idp, intake: () => intake, signup: true });
	return { otp, sent, queued };
}

describe("one-time codes minted at send time", () => {
	it("mints the code for a notification sent before its id was recorded, and the code verifies", async () => {
		const { otp, sent, queued } = codesSendingAtAccept();
		const email = `mint-${Date.now()}@example.test`;
		const { challengeId } = await otp.start({ email });
		expect(queued[0].lifecycle).toMatchObject({ challengeId, send: 1 });
		expect(sent).toHaveLength(1);
		expect(sent[0].code).toMatch(/^\d{6}$/);
		await expect(otp.verify({ challengeId, code: sent[0].code! })).resolves.toEqual({ signupEmail: email, channel: "email" });
	});

	it("still gives nothing to a notification a resend replaced, and the resend's own code verifies", async () => {
		const { otp, sent } = codesSendingAtAccept();
		const email = `mint-resend-${Date.now()}@example.test`;
		const { challengeId } = await otp.start({ email });
		await otp.resend(challengeId);
		expect(sent.map(s => s.code)).toEqual([expect.stringMatching(/^\d{6}$/), expect.stringMatching(/^\d{6}$/)]);
		// The first notification sent again (a retry after the resend): stale now.
		await expect(otp.mintAtSendTime(challengeId, sent[0].notificationId, "EMAIL", { send: 1 })).resolves.toBeNull();
		// The first code was deleted by the resend; the second opens the challenge.
		await expect(otp.verify({ challengeId, code: sent[0].code! })).rejects.toMatchObject({ type: "INVALID_OTP" });
		await expect(otp.verify({ challengeId, code: sent[1].code! })).resolves.toMatchObject({ signupEmail: email });
	});

	it("gives a fallback's send number nothing unless the challenge fell back to that channel", async () => {
		const { otp } = codesSendingAtAccept();
		const { challengeId } = await otp.start({ email: `mint-fb-${Date.now()}@example.test` });
		await expect(otp.mintAtSendTime(challengeId, "n-other", "SMS", { send: 1, fallback: true })).resolves.toBeNull();
		await store.collection<{ id: string }>("otp_challenges").updateMany({ id: challengeId }, { $set: { fallbackChannel: "sms" } });
		await expect(otp.mintAtSendTime(challengeId, "n-other", "SMS", { send: 1, fallback: true })).resolves.toMatchObject({ code: expect.stringMatching(/^\d{6}$/) });
		await expect(otp.mintAtSendTime(challengeId, "n-other", "EMAIL", { send: 1, fallback: true })).resolves.toBeNull();
	});
});
