/**
 * A thread's scheduling priority, lowered from inside the thread (issue 39). Linux
 * schedules threads, not processes: setpriority(2) given a thread's id sets that
 * thread's nice value alone, and `/proc/thread-self` names the calling thread's id.
 * Node's os.setPriority passes its id to setpriority(2) as it is, but Node tells no
 * thread its own id, and no package does this; so these few lines are ours.
 *
 * Only ever raised (a lower priority), which needs no privilege. Elsewhere than Linux,
 * or where /proc is not mounted, nothing changes and false says so.
 */
import { readlinkSync } from "node:fs";
import { setPriority } from "node:os";

/** The nice values setpriority(2) takes on Linux: 0 is the default, 19 the lowest priority. */
export const MAX_NICE = 19;

/** Sets the calling thread's nice value (0 to 19); true when it was set. */
export function niceThisThread(nice: number): boolean {
	if (process.platform !== "linux" || !Number.isInteger(nice) || nice < 0 || nice > MAX_NICE) return false;
	try {
		const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
		if (!Number.isInteger(tid) || tid <= 0) return false;
		setPriority(tid, nice);
		return true;
	} catch {
		return false;
	}
}
