package io.github.idempotency.fingerprint;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import tools.jackson.core.JacksonException;
import tools.jackson.core.JsonParser;
import tools.jackson.core.JsonToken;
import tools.jackson.core.ObjectReadContext;
import tools.jackson.core.json.JsonFactory;

/**
 * Canonical form of a JSON document: object members sorted by name, no insignificant whitespace,
 * numbers by value ({@code 1}, {@code 1.0} and {@code 1.00} are one number), strings minimally
 * escaped. Two documents that differ only in member order or whitespace have the same form.
 */
public final class CanonicalJson {

	private static final JsonFactory FACTORY = new JsonFactory();

	private CanonicalJson() {
	}

	/**
	 * Return the canonical form of a JSON document.
	 * @param json the document as UTF-8, UTF-16 or UTF-32 bytes
	 * @return the canonical form in UTF-8, or {@code null} if the bytes are not one JSON document
	 * @throws DuplicateMemberException if an object has the same member twice, which parsers
	 * resolve differently and so makes the request ambiguous
	 */
	public static byte[] canonicalize(byte[] json) {
		Object value;
		try (JsonParser parser = FACTORY.createParser(ObjectReadContext.empty(), json)) {
			JsonToken first = parser.nextToken();
			if (first == null) {
				return null;
			}
			value = read(parser, first);
			if (parser.nextToken() != null) {
				return null;
			}
		}
		catch (JacksonException ex) {
			return null;
		}
		StringBuilder out = new StringBuilder(json.length);
		write(value, out);
		return out.toString().getBytes(StandardCharsets.UTF_8);
	}

	private static Object read(JsonParser parser, JsonToken token) {
		switch (token) {
			case START_OBJECT: {
				Map<String, Object> members = new TreeMap<>();
				for (JsonToken t = parser.nextToken(); t != JsonToken.END_OBJECT; t = parser.nextToken()) {
					String name = parser.currentName();
					if (members.containsKey(name)) {
						throw new DuplicateMemberException(name);
					}
					members.put(name, read(parser, parser.nextToken()));
				}
				return members;
			}
			case START_ARRAY: {
				List<Object> elements = new ArrayList<>();
				for (JsonToken t = parser.nextToken(); t != JsonToken.END_ARRAY; t = parser.nextToken()) {
					elements.add(read(parser, t));
				}
				return elements;
			}
			case VALUE_STRING:
				return new StringValue(parser.getString());
			case VALUE_NUMBER_INT:
			case VALUE_NUMBER_FLOAT:
				return JsonNumber.parse(parser.getString());
			case VALUE_TRUE:
				return Boolean.TRUE;
			case VALUE_FALSE:
				return Boolean.FALSE;
			case VALUE_NULL:
				return null;
			default:
				throw new IllegalStateException("Unexpected JSON token " + token);
		}
	}

	@SuppressWarnings("unchecked")
	private static void write(Object value, StringBuilder out) {
		if (value instanceof Map<?, ?> members) {
			out.append('{');
			boolean first = true;
			for (Map.Entry<String, Object> member : ((Map<String, Object>) members).entrySet()) {
				if (!first) {
					out.append(',');
				}
				first = false;
				writeString(member.getKey(), out);
				out.append(':');
				write(member.getValue(), out);
			}
			out.append('}');
		}
		else if (value instanceof List<?> elements) {
			out.append('[');
			for (int i = 0; i < elements.size(); i++) {
				if (i > 0) {
					out.append(',');
				}
				write(elements.get(i), out);
			}
			out.append(']');
		}
		else if (value instanceof StringValue string) {
			writeString(string.value(), out);
		}
		else if (value instanceof JsonNumber number) {
			out.append(number.canonical());
		}
		else {
			out.append(value);
		}
	}

	/**
	 * Return a value as a JSON string literal, quoted and minimally escaped.
	 * @param value the value
	 * @return the literal
	 */
	public static String quote(String value) {
		StringBuilder out = new StringBuilder(value.length() + 2);
		writeString(value, out);
		return out.toString();
	}

	/**
	 * Write a string literal; a surrogate that is not half of a pair is escaped, since UTF-8
	 * cannot encode it and would turn it into {@code ?}, which is another string.
	 */
	private static void writeString(String value, StringBuilder out) {
		out.append('"');
		for (int i = 0; i < value.length(); i++) {
			char c = value.charAt(i);
			if (c == '"' || c == '\\') {
				out.append('\\').append(c);
			}
			else if (c < 0x20 || (Character.isSurrogate(c) && !pairedSurrogate(value, i))) {
				out.append(String.format("\\u%04x", (int) c));
			}
			else {
				out.append(c);
			}
		}
		out.append('"');
	}

	private static boolean pairedSurrogate(String value, int i) {
		char c = value.charAt(i);
		if (Character.isHighSurrogate(c)) {
			return i + 1 < value.length() && Character.isLowSurrogate(value.charAt(i + 1));
		}
		return i > 0 && Character.isHighSurrogate(value.charAt(i - 1));
	}

	private record StringValue(String value) {
	}

	/**
	 * Thrown when a JSON object has the same member twice.
	 */
	public static final class DuplicateMemberException extends RuntimeException {

		DuplicateMemberException(String name) {
			super("Duplicate JSON member '" + name + "'");
		}

	}

}
