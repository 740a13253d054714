/**
 * The real aws-ses-v2-local emulator (SES v2 API) as a child process on loopback.
 */
import { spawn, type ChildProcess } from "node:child_process";
import path from "node:path";
import { freePort, waitFor } from "./processes";

export interface SesEmail {
	messageId: string;
	from: string;
	destination: { to: string[] };
	subject: string;
	body: { html?: string; text?: string };
	/** The Headers list of the SendEmail request, as the emulator keeps it. */
	headers?: { name: string; value: string }[];
}

export interface SesLocal {
	endpoint: string;
	emails(): Promise<SesEmail[]>;
	stop(): Promise<void>;
}

export async function startSesLocal(): Promise<SesLocal> {
	const port = await freePort();
	const cli = path.join(__dirname, "../../node_modules/aws-ses-v2-local/dist/cli.js");
	const child: ChildProcess = spawn(process.execPath, [cli, "--host", "127.0.0.1", "--port", String(port)], { stdio: "ignore" });
	const endpoint = `http://127.0.0.1:${port}`;
	const emails = async () => ((await (await fetch(`${endpoint}/store`)).json()) as { emails: SesEmail[] }).emails;
	await waitFor("aws-ses-v2-local", async () => (await fetch(`${endpoint}/store`)).ok);
	return {
		endpoint,
		emails,
		stop: async () => {
			if (child.exitCode === null) {
				const exited = new Promise(r => child.once("exit", r));
				child.kill("SIGTERM");
				await exited;
			}
		}
	};
}
