package io.github.idempotency.docs;

import java.util.ArrayList;
import java.util.List;

/**
 * Whether a code block of the documentation appears in a region of compiling code: both with
 * whitespace runs collapsed to one space, and {@code ...} in the block standing for any text left
 * out, so that the block's pieces must appear in the region in order.
 */
final class SnippetMatch {

	static final String ELISION = "...";

	private final List<String> pieces;

	SnippetMatch(String block) {
		List<String> pieces = new ArrayList<>();
		for (String piece : normalize(block).split(java.util.regex.Pattern.quote(ELISION), -1)) {
			if (!piece.isBlank()) {
				pieces.add(piece.strip());
			}
		}
		this.pieces = List.copyOf(pieces);
	}

	static String normalize(String text) {
		return text.strip().replaceAll("\\s+", " ");
	}

	boolean isEmpty() {
		return this.pieces.isEmpty();
	}

	/**
	 * Return whether every piece of the block appears in the region, in order.
	 * @param region the region's text
	 * @return whether the block quotes the region
	 */
	boolean matches(String region) {
		return progress(region).complete();
	}

	/**
	 * Follow the block through the region as far as it agrees with it.
	 * @param region the region's text
	 * @return how far the block agrees with the region, and where they part
	 */
	Progress progress(String region) {
		String text = normalize(region);
		int position = 0;
		int agreed = 0;
		for (String piece : this.pieces) {
			int found = text.indexOf(piece, position);
			if (found >= 0) {
				position = found + piece.length();
				agreed += piece.length();
				continue;
			}
			for (int length = piece.length() - 1; length >= 0; length--) {
				int prefix = text.indexOf(piece.substring(0, length), position);
				if (prefix >= 0) {
					return new Progress(false, agreed + length, piece.substring(length),
							text.substring(prefix + length));
				}
			}
		}
		return new Progress(true, agreed, "", "");
	}

	/**
	 * How far a block agrees with a region.
	 *
	 * @param complete whether the whole block is in the region
	 * @param agreed how many characters of the block agree
	 * @param blockRest the block from where they part
	 * @param regionRest the region from where they part
	 */
	record Progress(boolean complete, int agreed, String blockRest, String regionRest) {

		String describe() {
			return "the block has «" + abbreviate(this.blockRest) + "» where the region has «"
					+ abbreviate(this.regionRest) + "»";
		}

		private static String abbreviate(String text) {
			return (text.length() > 80) ? text.substring(0, 80) + "…" : text;
		}

	}

}
