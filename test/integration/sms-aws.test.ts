/**
 * The aws SMS provider through the AWS SDK against a loopback HTTP server standing
 * in for AWS End User Messaging SMS: no emulator of that service exists (the local
 * AWS emulators in devDependencies cover Cognito and SES only), so this server checks
 * what the SDK sends (a SigV4 Authorization for the sms-voice service, the
 * SendTextMessage target and its JSON body) and answers as the service documents:
 * a MessageId, or an error type with its status.
 */
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { createChannels, type ChannelSender } from "../../lib/channels";
import { loadConfig } from "../../lib/config";
import { SendError } from "../../lib/errors/send-error";
import { tempDir } from "../helpers/platform";

interface Call {
	headers: http.IncomingHttpHeaders;
	body: Record<string, unknown>;
}

/** Answers by destination number: [status, body]. */
const ANSWERS: Record<string, [number, object]> = {
	"+14155550101": [400, { __type: "com.amazonaws.pinpointsmsvoicev2#ValidationException", Message: "Invalid destination", Reason: "INVALID_PARAMETER" }],
	"+14155550102": [500, { __type: "com.amazonaws.pinpointsmsvoicev2#InternalServerException", Message: "Internal error" }],
	"+14155550103": [400, { __type: "com.amazonaws.pinpointsmsvoicev2#ConflictException", Message: "Opted out", Reason: "DESTINATION_PHONE_NUMBER_OPTED_OUT" }],
	"+14155550104": [400, { __type: "com.amazonaws.pinpointsmsvoicev2#ThrottlingException", Message: "Slow down" }],
	"+14155550105": [403, { __type: "com.amazonaws.pinpointsmsvoicev2#AccessDeniedException", Message: "Not allowed" }]
};

async function startStandIn() {
	const calls: Call[] = [];
	const server = http.createServer((req, res) => {
		const chunks: Buffer[] = [];
		req.on("data", c => chunks.push(c));
		req.on("end", () => {
			const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
			calls.push({ headers: req.headers, body });
			const [status, answer] = ANSWERS[String(body.DestinationPhoneNumber)] ?? [200, { MessageId: `msg-${randomUUID()}` }];
			res.writeHead(status, { "content-type": "application/x-amz-json-1.0" });
			res.end(JSON.stringify(answer));
		});
	});
	await new Promise<void>(r => server.listen(0, "127.0.0.1", r));
	return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, calls, close: () => new Promise<void>(r => server.close(() => r())) };
}

describe("SMS through AWS End User Messaging SMS", () => {
	let standIn: Awaited<ReturnType<typeof startStandIn>>;
	let sms: ChannelSender;
	const dataDir = tempDir();

	beforeAll(async () => {
		standIn = await startStandIn();
		const config = loadConfig({
			LOG_LEVEL: "silent",
			DATA_DIR: dataDir,
			SMS_PROVIDER: "aws",
			AWS_SMS_ENDPOINT: standIn.url,
			SMS_ORIGINATION_IDENTITY: "+18005550199",
			SMS_CONFIGURATION_SET: "notifications",
			CLOUD_REGION: "eu-west-1"
		});
		sms = createChannels(config).get("SMS")!;
	});
	afterAll(async () => {
		await sms.close();
		await standIn.close();
		fs.rmSync(dataDir, { recursive: true, force: true });
	});

	it("should sign SendTextMessage for sms-voice and send the number, text, sender, configuration set and notification id", async () => {
		const id = randomUUID();
		const result = await sms.send(id, "+1 (415) 555-0100", { subject: "ignored", text: "Your code is 123456" });
		expect(result).toEqual({ messageId: expect.stringMatching(/^msg-/), provider: "aws", segments: 1 });
		const call = standIn.calls.at(-1)!;
		expect(call.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=local\/\d{8}\/eu-west-1\/sms-voice\/aws4_request, SignedHeaders=[a-z0-9;-]+, Signature=[0-9a-f]{64}$/);
		expect(call.headers["x-amz-target"]).toBe("PinpointSMSVoiceV2.SendTextMessage");
		expect(call.headers["content-type"]).toBe("application/x-amz-json-1.0");
		expect(call.body).toEqual({
			DestinationPhoneNumber: "+14155550100",
			MessageBody: "Your code is 123456",
			OriginationIdentity: "+18005550199",
			MessageType: "TRANSACTIONAL",
			ConfigurationSetName: "notifications",
			Context: { notificationId: id }
		});
	});

	it.each([
		["+14155550101", "ValidationException", true, false],
		["+14155550103", "ConflictException", true, true],
		["+14155550102", "InternalServerException", false, false],
		["+14155550104", "ThrottlingException", false, false],
		["+14155550105", "AccessDeniedException", false, false]
	])("should read the answer for %s as %s (permanent: %s, number unusable: %s)", async (to, code, permanent, recipientUnusable) => {
		const err = await sms.send(randomUUID(), to, { subject: "", text: "x" }).catch(e => e);
		expect(err).toBeInstanceOf(SendError);
		expect(err).toMatchObject({ code, permanent, recipientUnusable });
	});

	it("should fail for good without a request when the number is not E.164 or there is no text part", async () => {
		const before = standIn.calls.length;
		await expect(sms.send(randomUUID(), "4155550100", { subject: "", text: "x" })).rejects.toMatchObject({ code: "INVALID_PHONE_NUMBER", permanent: true });
		await expect(sms.send(randomUUID(), "+14155550100", { subject: "", html: "<p>x</p>" })).rejects.toMatchObject({ code: "NO_TEXT_PART", permanent: true });
		expect(standIn.calls.length).toBe(before);
	});
});
