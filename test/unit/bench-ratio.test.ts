/**
 * The compare's ratio (bench/compare.ts): the median of the rounds' own ratios, each
 * round's project against the same round's other side.
 */
import { pairedRatio } from "../../bench/compare";

describe("pairedRatio", () => {
	it("pairs each round with itself, not the medians of the two sides", () => {
		// The GET rounds of one run on the 2-vCPU VM: the medians' ratio is 24,720 / 30,419 = 0.81.
		const project = [30_420, 24_720, 24_168];
		const floor = [30_419, 30_846, 26_775];
		expect(pairedRatio(project, floor)).toBeCloseTo(24_168 / 26_775, 10);
	});

	it("takes the middle two's mean for an even count of rounds", () => {
		expect(pairedRatio([1, 2, 3, 4], [1, 1, 1, 1])).toBe(2.5);
	});

	it("leaves out a round that has no figure", () => {
		expect(pairedRatio([10, NaN, 9], [10, 10, 10])).toBe(0.95);
		expect(pairedRatio([NaN], [1])).toBeNaN();
	});
});
