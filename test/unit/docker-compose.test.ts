/**
 * docker-compose.yml is for users (no Docker engine runs here): it must parse and
 * name every service the platform has, built from one image, each with a health
 * check (the platform nodes with the image's own, tested as a process in
 * test/integration/healthcheck.test.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { parse } from "yaml";
import { ALL_SERVICES } from "../../lib/config";

describe("docker-compose.yml", () => {
	const doc = parse(fs.readFileSync(path.join(__dirname, "../../docker-compose.yml"), "utf8"), { merge: true });

	it("should name nats, redis, mongo and every platform service when parsed", () => {
		expect(Object.keys(doc.services).sort()).toEqual(["mongo", "nats", "redis", ...ALL_SERVICES].sort());
	});

	it.each([...ALL_SERVICES])("should run %s from the one image over NATS with SERVICES set to it", name => {
		const svc = doc.services[name];
		expect(svc.image).toBe("auth-notify:latest");
		expect(svc.environment).toMatchObject({ SERVICES: name, NATS_URL: "nats://nats:4222", MONGODB_URL: expect.stringMatching(/^mongodb:\/\//) });
	});

	it("should give every platform node the same PUBLIC_URL, since the token issuers are built from it", () => {
		const urls = new Set(ALL_SERVICES.map(name => doc.services[name].environment.PUBLIC_URL));
		expect([...urls]).toEqual(["${PUBLIC_URL:-http://localhost:8500}"]);
	});

	it("should share no volume for signing keys: auth reads the old one only to import a key, the dispatcher keeps its outbox", () => {
		const mounts = Object.fromEntries(Object.entries(doc.services).filter(([, s]: [string, any]) => s.volumes).map(([n, s]: [string, any]) => [n, s.volumes]));
		expect(mounts).toEqual({ mongo: ["mongo-data:/data/db"], auth: ["platform-data:/data:ro"], dispatcher: ["platform-data:/data"] });
		expect(doc.services.auth.environment).toHaveProperty("IDP_KEY_ENCRYPTION_KEY");
		expect(doc.services["api-gateway"].environment).not.toHaveProperty("IDP_KEY_ENCRYPTION_KEY");
	});

	it("should run several dispatcher replicas and publish only the gateway's port", () => {
		expect(doc.services.dispatcher.deploy.replicas).toBeGreaterThan(1);
		const published = Object.entries(doc.services).filter(([, s]: [string, any]) => s.ports).map(([n]) => n);
		expect(published).toEqual(["api-gateway"]);
		expect(doc.services["api-gateway"].ports).toEqual(["8500:8500"]);
	});
});

describe("docker-compose.yml health checks", () => {
	const doc = parse(fs.readFileSync(path.join(__dirname, "../../docker-compose.yml"), "utf8"), { merge: true });
	const services = Object.entries(doc.services) as [string, any][];
	const dockerfile = fs.readFileSync(path.join(__dirname, "../../Dockerfile"), "utf8");

	it.each(services.map(([name]) => name))("should give %s a health check in exec or shell form", name => {
		const test = doc.services[name].healthcheck?.test;
		expect(Array.isArray(test) && ["CMD", "CMD-SHELL"].includes(test[0]) && test.length > 1).toBe(true);
		expect(doc.services[name].healthcheck.disable).toBeUndefined();
	});

	it("should write no $ in a health check, which compose would take for a variable", () => {
		expect(services.filter(([, s]) => JSON.stringify(s.healthcheck?.test ?? "").includes("$")).map(([n]) => n)).toEqual([]);
	});

	it.each([...ALL_SERVICES])("should probe %s with the image's own check and wait for NATS, Redis and MongoDB to be healthy", name => {
		const svc = doc.services[name];
		const image = /^HEALTHCHECK .*CMD (\[.*\])$/m.exec(dockerfile);
		expect(image).not.toBeNull();
		expect(svc.healthcheck.test).toEqual(["CMD", ...JSON.parse(image![1]!)]);
		// Without the gateway the check reads the node's metrics.
		expect(svc.environment.METRICS_PORT).toMatch(/^\d+$/);
		expect(svc.depends_on).toEqual({ nats: { condition: "service_healthy" }, redis: { condition: "service_healthy" }, mongo: { condition: "service_healthy" } });
	});

	it("should open the NATS monitoring port its health check reads", () => {
		expect(doc.services.nats.command).toEqual(expect.arrayContaining(["-m", "8222"]));
		expect(doc.services.nats.healthcheck.test.join(" ")).toContain("http://127.0.0.1:8222/healthz");
	});
});
