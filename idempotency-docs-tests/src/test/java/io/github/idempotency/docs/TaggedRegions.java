package io.github.idempotency.docs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The regions of this module's test sources and resources marked {@code tag::name[]} …
 * {@code end::name[]}, in a line comment ({@code //} or {@code #}), as Asciidoctor marks them.
 * Regions of one name in one file are joined, so that an import and the statement that uses it
 * make one region; a marker line is never part of a region.
 */
final class TaggedRegions {

	private static final Pattern MARKER = Pattern.compile("^\\s*(?://|#)\\s*(tag|end)::([\\w.-]+)\\[\\]\\s*$");

	private TaggedRegions() {
	}

	/**
	 * Read every region under the given folders.
	 * @param folders the folders to read
	 * @return the regions, by file and name
	 */
	static List<Region> in(Path... folders) {
		List<Region> regions = new ArrayList<>();
		for (Path folder : folders) {
			try (Stream<Path> files = Files.walk(folder)) {
				files.filter(Files::isRegularFile).sorted().forEach((file) -> regions.addAll(of(file)));
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
		}
		return regions;
	}

	static List<Region> of(Path file) {
		Map<String, StringBuilder> texts = new LinkedHashMap<>();
		Set<String> open = new LinkedHashSet<>();
		List<String> lines = Documentation.lines(file);
		for (int i = 0; i < lines.size(); i++) {
			Matcher marker = MARKER.matcher(lines.get(i));
			if (marker.matches()) {
				String name = marker.group(2);
				boolean opens = marker.group(1).equals("tag");
				if (opens ? !open.add(name) : !open.remove(name)) {
					throw new IllegalStateException(file + ":" + (i + 1) + ": " + lines.get(i).strip() + " "
							+ (opens ? "opens a region that is open" : "closes a region that is not open"));
				}
				texts.computeIfAbsent(name, (key) -> new StringBuilder());
				continue;
			}
			for (String name : open) {
				texts.get(name).append(lines.get(i)).append('\n');
			}
		}
		if (!open.isEmpty()) {
			throw new IllegalStateException(file + ": regions never closed: " + open);
		}
		List<Region> regions = new ArrayList<>();
		texts.forEach((name, text) -> regions.add(new Region(file, name, text.toString())));
		return regions;
	}

	/**
	 * A marked region of a file.
	 *
	 * @param file the file
	 * @param name the region's name
	 * @param text its lines, joined
	 */
	record Region(Path file, String name, String text) {

		String extension() {
			String fileName = this.file.getFileName().toString();
			return fileName.substring(fileName.lastIndexOf('.') + 1);
		}

		@Override
		public String toString() {
			return Documentation.module().relativize(this.file) + "#" + this.name;
		}

	}

}
