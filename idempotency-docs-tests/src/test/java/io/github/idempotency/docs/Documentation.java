package io.github.idempotency.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The README and the pages of the guide in {@code docs/}, as the documentation tests read them:
 * their fenced code blocks, their relative links and the anchors of their headings.
 */
final class Documentation {

	private static final Pattern FENCE = Pattern.compile("^(\\s*)(`{3,}|~{3,})\\s*([^`\\s]*).*$");

	private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

	private static final Pattern LINK = Pattern.compile("\\[[^\\]]*\\]\\(([^)\\s]+)\\)");

	private static final Pattern CODE_SPAN = Pattern.compile("(`+).*?\\1");

	private Documentation() {
	}

	/**
	 * Return the root of the repository, where README.md is.
	 * @return the root
	 */
	static Path root() {
		String root = System.getProperty("idempotency.docs.root");
		return Path.of((root != null) ? root : "..").toAbsolutePath().normalize();
	}

	/**
	 * Return this module's folder.
	 * @return the folder of the module that holds the snippets' code
	 */
	static Path module() {
		return root().resolve("idempotency-docs-tests");
	}

	/**
	 * Return the README and every page of the guide.
	 * @return the Markdown files, README first
	 */
	static List<Path> pages() {
		List<Path> pages = new ArrayList<>();
		pages.add(root().resolve("README.md"));
		try (Stream<Path> files = Files.list(root().resolve("docs"))) {
			files.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	static String name(Path page) {
		return root().relativize(page).toString();
	}

	static List<String> lines(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Return the fenced code blocks of a page, in order.
	 * @param page the page
	 * @return its blocks
	 */
	static List<Block> blocks(Path page) {
		List<Block> blocks = new ArrayList<>();
		List<String> lines = lines(page);
		for (int i = 0; i < lines.size(); i++) {
			Matcher open = FENCE.matcher(lines.get(i));
			if (!open.matches()) {
				continue;
			}
			String fence = open.group(2);
			int indent = open.group(1).length();
			StringBuilder text = new StringBuilder();
			int j = i + 1;
			while (j < lines.size() && !isClosing(lines.get(j), fence)) {
				String line = lines.get(j);
				int strip = 0;
				while (strip < indent && strip < line.length() && line.charAt(strip) == ' ') {
					strip++;
				}
				text.append(line.substring(strip)).append('\n');
				j++;
			}
			blocks.add(new Block(page, i + 1, open.group(3).toLowerCase(Locale.ROOT), text.toString()));
			i = j;
		}
		return blocks;
	}

	private static boolean isClosing(String line, String fence) {
		String trimmed = line.strip();
		return trimmed.startsWith(fence) && trimmed.chars().allMatch((c) -> c == fence.charAt(0));
	}

	/**
	 * Return the relative links of a page, outside its code blocks and code spans.
	 * @param page the page
	 * @return its links, each with the line it is on
	 */
	static List<Link> links(Path page) {
		List<Link> links = new ArrayList<>();
		List<String> lines = lines(page);
		String fence = null;
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			Matcher open = FENCE.matcher(line);
			if (fence != null) {
				if (isClosing(line, fence)) {
					fence = null;
				}
				continue;
			}
			if (open.matches()) {
				fence = open.group(2);
				continue;
			}
			Matcher link = LINK.matcher(CODE_SPAN.matcher(line).replaceAll(""));
			while (link.find()) {
				String target = link.group(1);
				if (!target.matches("^[a-z][a-z0-9+.-]*:.*")) {
					links.add(new Link(page, i + 1, target));
				}
			}
		}
		return links;
	}

	/**
	 * Return the anchors GitHub gives the headings of a page.
	 * @param page the page
	 * @return its anchors
	 */
	static Set<String> anchors(Path page) {
		Set<String> anchors = new LinkedHashSet<>();
		String fence = null;
		for (String line : lines(page)) {
			Matcher open = FENCE.matcher(line);
			if (fence != null) {
				if (isClosing(line, fence)) {
					fence = null;
				}
				continue;
			}
			if (open.matches()) {
				fence = open.group(2);
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (heading.matches()) {
				String anchor = slug(heading.group(1));
				String unique = anchor;
				for (int n = 1; anchors.contains(unique); n++) {
					unique = anchor + "-" + n;
				}
				anchors.add(unique);
			}
		}
		return anchors;
	}

	/**
	 * The anchor GitHub derives from a heading: lower case, punctuation dropped, spaces as hyphens.
	 */
	static String slug(String heading) {
		String text = heading.replaceAll("\\[([^\\]]*)\\]\\([^)]*\\)", "$1").toLowerCase(Locale.ROOT);
		return text.replaceAll("[^\\p{L}\\p{N}\\s_-]", "").replace(' ', '-');
	}

	/**
	 * A fenced code block.
	 *
	 * @param page the page it is on
	 * @param line the line of its opening fence
	 * @param language the first word of its info string, in lower case
	 * @param text its content, without the fence's own indentation
	 */
	record Block(Path page, int line, String language, String text) {

		@Override
		public String toString() {
			return name(this.page) + ":" + this.line + " (```" + this.language + ")";
		}

	}

	/**
	 * A relative link.
	 *
	 * @param page the page it is on
	 * @param line its line
	 * @param target where it leads, a path with an optional {@code #anchor}
	 */
	record Link(Path page, int line, String target) {

		@Override
		public String toString() {
			return name(this.page) + ":" + this.line + " → " + this.target;
		}

	}

}
