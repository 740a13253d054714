/**
 * A digest window survives a SIGKILL of the dispatcher that would close it: the
 * members and the open digest are in the store, not in the dispatcher, so another
 * dispatcher closes the window and sends one mail for all of them, each member
 * DIGESTED with its id. Real OS processes over real NATS, sharing one store.
 */
import fs from "node:fs";
import path from "node:path";
import type { NotificationDoc } from "../../lib/notifications";
import { SqliteStore } from "../../lib/store/sqlite";
import { http, newUser, tempDir, type HttpResult } from "../helpers/platform";
import { freePort, startNode, waitFor, type NodeProcess } from "../helpers/processes";
import { ADMIN_ENV, adminToken } from "../helpers/senders";
import { describeWith, NATS_URL, uniqueName } from "../helpers/services";

describeWith("NATS", "digests across a crash", () => {
	it("should lose no member and send the digest once when the dispatcher is SIGKILLed during the window", async () => {
		const dataDir = tempDir();
		const port = await freePort();
		const baseUrl = `http://127.0.0.1:${port}`;
		const env = { NATS_URL, NAMESPACE: uniqueName("digestcrash"), DATA_DIR: dataDir, PUBLIC_URL: baseUrl, DISPATCHER_POLL_MS: "100", NOTIFICATION_LEASE_MS: "3000", EMAIL_SEND_TIMEOUT_MS: "1000" };
		const nodes: NodeProcess[] = [];
		const store = new SqliteStore(path.join(dataDir, "store.sqlite"));
		try {
			nodes.push(startNode({ ...env, ...ADMIN_ENV, SERVICES: "api-gateway,auth,actors,notifications", PORT: String(port), NODE_ID: "digest-api" }));
			let reg!: HttpResult;
			await waitFor("the api node", async () => (reg = await http(baseUrl, "POST", "/auth/register", { json: newUser() })).status !== 503, 30000);
			expect(reg.status).toBe(201);
			const token = await adminToken(baseUrl);
			const first = startNode({ ...env, SERVICES: "dispatcher", NODE_ID: "digest-dispatcher-1" });
			nodes.push(first);

			const digest = { key: "comments", windowSeconds: 3 };
			const send = async (title: string) => {
				const res = await http(baseUrl, "POST", "/notifications", { token, json: { to: "crash@example.com", template: { subject: "Updates", text: "{{ title }}" }, variables: { title }, digest } });
				expect(res.status).toBe(201);
				return res.body.notificationId as string;
			};
			const members = [await send("one"), await send("two")];
			// Killed during the window, before it could close it.
			expect(await first.stop("SIGKILL")).toBe(null);
			members.push(await send("three"));
			nodes.push(startNode({ ...env, SERVICES: "dispatcher", NODE_ID: "digest-dispatcher-2" }));

			const notifications = store.collection<NotificationDoc>("notifications");
			let digestDoc: NotificationDoc | null = null;
			await waitFor("the digest to be sent", async () => {
				digestDoc = await notifications.findOne({ digestOf: { $exists: true } });
				return digestDoc?.status === "SENT";
			}, 30000);
			const sent = digestDoc!;
			expect(sent.digestOf).toEqual(members);
			expect(sent.variables.events).toEqual([{ title: "one" }, { title: "two" }, { title: "three" }]);
			await expect(notifications.count({ digestOf: { $exists: true } })).resolves.toBe(1);
			for (const id of members) await expect(notifications.get(id)).resolves.toMatchObject({ status: "DIGESTED", digestId: sent.id });
			const mails = fs.readdirSync(path.join(dataDir, "outbox")).filter(f => f.endsWith(".eml"));
			expect(mails.filter(f => f.startsWith(sent.id))).toHaveLength(1);
			expect(mails.filter(f => members.some(m => f.startsWith(m)))).toEqual([]);
		} finally {
			await Promise.all(nodes.map(n => n.stop()));
			await store.close();
			fs.rmSync(dataDir, { recursive: true, force: true });
		}
	}, 90000);
});
