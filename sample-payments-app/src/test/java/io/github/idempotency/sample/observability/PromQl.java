package io.github.idempotency.sample.observability;

import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the metric names out of a PromQL expression (or a Grafana {@code label_values} query):
 * every identifier that is not a function, a keyword, a label, a duration or a Grafana variable.
 */
final class PromQl {

	private static final Pattern STRING = Pattern.compile("\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`");

	private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");

	private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");

	private static final Pattern GROUPING = Pattern
		.compile("\\b(by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");

	private static final Pattern IDENTIFIER = Pattern.compile("[a-zA-Z_:][a-zA-Z0-9_:]*");

	private static final Set<String> KEYWORDS = Set.of("and", "or", "unless", "bool", "offset", "by", "without", "on",
			"ignoring", "group_left", "group_right", "inf", "nan", "atan2", "start", "end");

	private PromQl() {
	}

	/**
	 * Return the metric names an expression selects.
	 * @param expression the expression
	 * @return the metric names
	 */
	static Set<String> metricNames(String expression) {
		String text = STRING.matcher(expression).replaceAll("\"\"");
		text = MATCHERS.matcher(text).replaceAll(" ");
		text = RANGE.matcher(text).replaceAll(" ");
		text = GROUPING.matcher(text).replaceAll(" ");
		Set<String> names = new TreeSet<>();
		Matcher identifier = IDENTIFIER.matcher(text);
		while (identifier.find()) {
			String name = identifier.group();
			int start = identifier.start();
			char before = (start > 0) ? text.charAt(start - 1) : ' ';
			if (Character.isDigit(before) || before == '.' || before == '$' || KEYWORDS.contains(name.toLowerCase())
					|| text.substring(identifier.end()).stripLeading().startsWith("(")) {
				continue;
			}
			names.add(name);
		}
		return names;
	}

}
