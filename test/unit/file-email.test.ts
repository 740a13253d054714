import fs from "node:fs";
import path from "node:path";
import { FileEmailProvider } from "../../lib/email/file";
import { compose } from "../../lib/email/mime";
import { tempDir } from "../helpers/platform";

describe("file email provider", () => {
	it("should write each message as an owner-only .eml file in an owner-only folder, with no temporary file left", async () => {
		const root = tempDir();
		const dir = path.join(root, "outbox");
		try {
			const provider = new FileEmailProvider(dir);
			const sent = await Promise.all(
				["n1", "n2", "n3"].map(id => provider.send({ notificationId: id, from: "platform@example.com", to: "ada@example.com", subject: "Hi", text: "Hello" }))
			);
			const files = fs.readdirSync(dir).sort();
			expect(files).toEqual(["n1", "n2", "n3"].map((id, i) => `${id}.${sent[i]!.messageId}.eml`).sort());
			expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
			for (const f of files) {
				expect(fs.statSync(path.join(dir, f)).mode & 0o777).toBe(0o600);
				expect(fs.readFileSync(path.join(dir, f), "utf8")).toMatch(/^Subject: Hi$/m);
			}
		} finally {
			fs.rmSync(root, { recursive: true, force: true });
		}
	});

	it("should give every email a multipart boundary of its own that neither part contains", async () => {
		const message = { notificationId: "n1", from: "platform@example.com", to: "ada@example.com", subject: "Hi", html: "<p>Hello ----_NmP</p>", text: "Hello" };
		const boundaries = new Set<string>();
		for (let i = 0; i < 50; i++) {
			const raw = (await compose(message)).toString();
			const boundary = /boundary="([^"]+)"/.exec(raw)![1]!;
			expect(boundary).toMatch(/^--_NmP-[0-9a-f]{32}-Part_1$/);
			// The opening, the separator and the closing delimiter, and nothing else.
			expect(raw.split(`--${boundary}`)).toHaveLength(4);
			expect(raw).toContain(`--${boundary}--`);
			boundaries.add(boundary);
		}
		expect(boundaries.size).toBe(50);
	});
});
