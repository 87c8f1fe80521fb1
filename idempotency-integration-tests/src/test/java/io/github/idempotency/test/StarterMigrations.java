package io.github.idempotency.test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.springframework.core.io.Resource;
import org.springframework.core.io.support.PathMatchingResourcePatternResolver;


/**
 * The versioned migrations that the starter ships for a database, read from the classpath, so
 * that schema tests expect every one of them without naming them.
 */
public final class StarterMigrations {

	private static final Pattern VERSIONED = Pattern.compile("V([0-9._]+)__.+\\.sql");

	private StarterMigrations() {
	}

	/**
	 * Return the versions of the starter's migrations for a database, in order.
	 * @param platform the database's folder of migrations, such as {@code postgresql}
	 * @return the versions, such as {@code 1} and {@code 2}
	 */
	public static List<String> versions(String platform) {
		try {
			Resource[] resources = new PathMatchingResourcePatternResolver()
				.getResources("classpath*:db/idempotency/" + platform + "/V*__*.sql");
			return Stream.of(resources)
				.map(Resource::getFilename)
				.map(VERSIONED::matcher)
				.filter(Matcher::matches)
				.map((matcher) -> matcher.group(1).replace('_', '.'))
				.distinct()
				.sorted((first, second) -> Arrays.compare(versionParts(first), versionParts(second)))
				.toList();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static int[] versionParts(String version) {
		return Stream.of(version.split("\\.")).mapToInt(Integer::parseInt).toArray();
	}

}
