/**
 * The client SDK as a package, the way a user gets it: `npm pack` of client/ (its
 * prepack builds it) into a temporary folder, installed from that tarball alone into a
 * new consumer project (type module) with no registry, then type-checked with the
 * repository's TypeScript under `moduleResolution` nodenext (a Node project: @types/node,
 * no DOM) and bundler (a browser project: the DOM library), both strict and with the
 * package's own declarations checked (skipLibCheck off). The consumer's code calls
 * methods with typed arguments and reads typed results; lines marked @ts-expect-error
 * pass wrong arguments, so types that had decayed to `any` fail the check too. Node
 * then runs the installed package once, through its `exports`.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const ROOT = path.resolve(__dirname, "../..");
const BIN = path.join(ROOT, "node_modules/.bin");
const TSC = path.join(ROOT, "node_modules/typescript/bin/tsc");

/** What the consumer writes: everyday calls, each result used as its type, and three calls the types must refuse. */
const CONSUMER = `
import { ApiError, createClient, memoryStorage, type Notification, type NotificationInput, type NotificationStatus, type TokenSet } from "@auth-notify/client";

const api = createClient({ baseUrl: "http://localhost:8500", storage: memoryStorage(), onAuthRequired: () => undefined });

export async function firstHour(actorId: string): Promise<string> {
	const tokens: TokenSet = await api.login("ada@example.com", "Correct-Horse-9");
	const expiresAt: number = tokens.expiresAt;
	const input: NotificationInput = {
		to: "ada@example.com",
		template: { subject: "Hello {{name}}", text: "Your order {{order.id}}" },
		variables: { name: "Ada", order: { id: 7, lines: ["book", 2, null] } },
		metadata: { source: "consumer" }
	};
	const { notificationId } = await api.notifications.send(input, { idempotencyKey: "order-7" });
	const sent: Notification = await api.notifications.get(notificationId);
	const status: NotificationStatus = sent.status;
	const page = await api.notifications.list({ status: "SENT", channel: "EMAIL", limit: 20 });
	const next: string | undefined = page.nextCursor;
	const watch = api.notifications.watch(notificationId, event => console.log(event.status, event.occurredAt));
	watch.stop();
	const template = await api.templates.create({ name: "welcome", subject: "Welcome {{name}}", text: "Hi" });
	await api.templates.update(template.templateId, { name: "welcome", subject: "Welcome back" });
	const prefs = await api.preferences.put(actorId, [{ channel: "EMAIL", category: "marketing", enabled: false }]);
	const enabled: boolean = prefs.items[0].enabled;
	const endpoint = await api.webhookEndpoints.create({ url: "https://hooks.example.com/an", events: ["notification.delivered"] });
	const secret: string = endpoint.secret;
	await api.auth.forgotPassword("ada@example.com");
	const flag = await api.admin.features.set("notifications.low-priority", { paused: true });
	const billing = createClient({ baseUrl: "http://localhost:8500", serviceAccount: { username: "service-billing", password: "secret" } });
	await billing.notifications.send({ to: "customer@example.com", channel: "SMS", priority: "HIGH", templateId: template.templateId });
	const paused: unknown = flag.value.paused;

	// @ts-expect-error: \`to\` is a string
	await api.notifications.send({ to: 42, template: { subject: "Hi" } });
	// @ts-expect-error: DONE is not a status
	await api.notifications.list({ status: "DONE" });
	// @ts-expect-error: the route has no such path
	await api.request("get", "/no-such-route");

	try {
		await api.auth.changePassword("old", "new");
	} catch (err) {
		if (err instanceof ApiError && err.code === "INVALID_PASSWORD") return err.problem?.errors?.[0]?.message ?? err.message;
	}
	return [expiresAt, status, next, enabled, secret, paused].join();
}
`;

/** Runs the installed package in Node: the ESM entry its exports name, against a fetch that answers one route. */
const SMOKE = `
import { createClient } from "@auth-notify/client";
const fetch = async url => new Response(JSON.stringify({ publicKey: "BKey" }), { headers: { "content-type": "application/json", "x-url": String(url) } });
const api = createClient({ baseUrl: "http://localhost:8500", fetch });
process.stdout.write(await api.pushSubscriptions.vapidPublicKey());
`;

const COMMON = { target: "es2022", strict: true, skipLibCheck: false, noEmit: true };
const PROJECTS = {
	nodenext: { ...COMMON, module: "nodenext", moduleResolution: "nodenext", lib: ["es2022"], types: ["node"], typeRoots: [path.join(ROOT, "node_modules/@types")] },
	bundler: { ...COMMON, module: "esnext", moduleResolution: "bundler", lib: ["es2022", "dom"], types: [] }
};

let work: string;

/** npm and tsc on the project's Node, with none of the calling npm's settings, a private cache and no reachable registry. */
function run(command: string, args: string[], cwd: string): { status: number | null; output: string; stdout: string } {
	const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.toLowerCase().startsWith("npm_")));
	Object.assign(env, {
		PATH: `${BIN}${path.delimiter}${process.env.PATH}`,
		npm_config_cache: path.join(work, "npm-cache"),
		npm_config_registry: "http://127.0.0.1:9/",
		npm_config_audit: "false",
		npm_config_fund: "false",
		npm_config_update_notifier: "false"
	});
	const r = spawnSync(command, args, { cwd, env, encoding: "utf8" });
	return { status: r.status, output: `${r.stdout}${r.stderr}${r.error ? String(r.error) : ""}`, stdout: r.stdout };
}

beforeAll(() => {
	work = fs.mkdtempSync(path.join(os.tmpdir(), "an-client-pack-"));
});
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

describe("@auth-notify/client as a package", () => {
	let tarball: string;
	const consumer = () => path.join(work, "consumer");

	it("should pack the built SDK with its declarations and without its sources", () => {
		const packed = run("npm", ["pack", "--json", "--pack-destination", work], path.join(ROOT, "client"));
		expect(packed).toMatchObject({ status: 0 });
		const [info] = JSON.parse(packed.stdout) as { filename: string; files: { path: string }[] }[];
		const files = info.files.map(f => f.path).sort();
		expect(files).toEqual(expect.arrayContaining(["README.md", "LICENSE", "package.json", "dist/index.js", "dist/index.d.ts", "dist/api-types.d.ts", "dist/watch.js"]));
		expect(files.filter(f => f.startsWith("src/") || f.endsWith(".ts") && !f.endsWith(".d.ts") || f === "tsconfig.json")).toEqual([]);
		tarball = path.join(work, info.filename);
		expect(fs.existsSync(tarball)).toBe(true);
	});

	it("should install from the tarball alone into a new project", () => {
		fs.mkdirSync(consumer());
		fs.writeFileSync(path.join(consumer(), "package.json"), JSON.stringify({ name: "consumer", version: "1.0.0", private: true, type: "module" }));
		const installed = run("npm", ["install", tarball, "--offline", "--no-audit", "--no-fund", "--ignore-scripts"], consumer());
		expect(installed).toMatchObject({ status: 0 });
		const manifest = JSON.parse(fs.readFileSync(path.join(consumer(), "node_modules/@auth-notify/client/package.json"), "utf8"));
		expect(manifest).toMatchObject({ name: "@auth-notify/client", type: "module", exports: { ".": { types: "./dist/index.d.ts" } } });
		expect(fs.readdirSync(path.join(consumer(), "node_modules")).filter(n => !n.startsWith("."))).toEqual(["@auth-notify"]);
	});

	it.each(Object.keys(PROJECTS) as (keyof typeof PROJECTS)[])("should type-check a strict consumer under moduleResolution %s", mode => {
		fs.writeFileSync(path.join(consumer(), "app.ts"), CONSUMER);
		fs.writeFileSync(path.join(consumer(), `tsconfig.${mode}.json`), JSON.stringify({ compilerOptions: PROJECTS[mode], files: ["app.ts"] }));
		const checked = run(process.execPath, [TSC, "-p", `tsconfig.${mode}.json`], consumer());
		expect(checked.output).toBe("");
		expect(checked.status).toBe(0);
	});

	it("should load the installed package in Node through its exports", () => {
		fs.writeFileSync(path.join(consumer(), "smoke.mjs"), SMOKE);
		expect(run(process.execPath, ["smoke.mjs"], consumer())).toMatchObject({ status: 0, output: "BKey" });
	});
});
