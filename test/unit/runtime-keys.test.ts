/**
 * How a node's runtime fetches the embedded provider's public keys through its broker
 * (a real local ServiceBroker; the multi-process tests run the same over NATS). Nodes that
 * start together hear of each other up to a second apart, so the first fetch may come
 * before this node has heard of the auth service.
 */
import { ServiceBroker } from "moleculer";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import { KeysUnavailableError } from "../../lib/idp/public-keys";
import { attachRuntime, Runtime } from "../../lib/runtime";
import { testConfig } from "../helpers/platform";

describe("a node's public keys, fetched through its broker", () => {
	let broker: ServiceBroker;
	let runtime: Runtime;
	let jwk: JWK;
	let jwksCalls: number;

	const startAuth = () => broker.createService({ name: "auth", actions: { jwks: () => ((jwksCalls += 1), { keys: [jwk] }) } });

	beforeAll(async () => {
		const { publicKey } = await generateKeyPair("EdDSA", { crv: "Ed25519", extractable: true });
		jwk = { ...(await exportJWK(publicKey)), kid: "k1", alg: "EdDSA", use: "sig" };
	});

	beforeEach(async () => {
		jwksCalls = 0;
		broker = new ServiceBroker({ logger: false });
		runtime = new Runtime(testConfig({ REQUEST_TIMEOUT_MS: "1000" }));
		attachRuntime(broker, runtime);
		await broker.start();
	});

	afterEach(async () => {
		await broker.stop();
		await runtime.close();
	});

	it("should wait for the auth service on the first fetch instead of failing when it is heard of a moment later", async () => {
		const ready = runtime.publicKeys().ready();
		setTimeout(startAuth, 100);

		await expect(ready).resolves.toBeUndefined();
		expect(jwksCalls).toBe(1);
	});

	it("should give up the first fetch after the fetch's time bound, saying why", async () => {
		const started = Date.now();

		await expect(runtime.publicKeys().ready()).rejects.toThrow("The signing keys could not be obtained from auth.jwks: no node offering it was heard of within 1000 ms");
		expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
	});

	it("should answer readiness at once while no node offers the keys, and hold them once one does", async () => {
		const started = Date.now();
		await expect(runtime.keysReady()).rejects.toBeInstanceOf(KeysUnavailableError);
		expect(Date.now() - started).toBeLessThan(500);

		// The fetch the probe began takes the keys when the service is heard of.
		startAuth();
		await new Promise(r => setTimeout(r, 100));
		expect(runtime.publicKeys().held).toBe(true);
		await expect(runtime.keysReady()).resolves.toBeUndefined();
		expect(jwksCalls).toBe(1);
	});
});
