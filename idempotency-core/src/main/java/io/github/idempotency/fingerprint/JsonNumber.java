package io.github.idempotency.fingerprint;

import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * A JSON number by value: {@code 1}, {@code 1.0} and {@code 10E-1} have one canonical form.
 * Numbers whose exponent a {@link BigDecimal} cannot hold, such as {@code 1e-2147483648}, are
 * normalized from their digits, so that any valid JSON number has a canonical form.
 *
 * @param canonical the canonical form
 */
record JsonNumber(String canonical) {

	static JsonNumber parse(String literal) {
		try {
			BigDecimal number = new BigDecimal(literal);
			return new JsonNumber((number.signum() == 0) ? "0" : number.stripTrailingZeros().toString());
		}
		catch (NumberFormatException | ArithmeticException ex) {
			return new JsonNumber(fromDigits(literal));
		}
	}

	/**
	 * Return {@code [-]digitsE[-]exponent} with no leading or trailing zero digit, a form no
	 * {@link BigDecimal} gives.
	 */
	private static String fromDigits(String literal) {
		boolean negative = literal.startsWith("-");
		String unsigned = negative ? literal.substring(1) : literal;
		int e = Math.max(unsigned.indexOf('e'), unsigned.indexOf('E'));
		String mantissa = (e >= 0) ? unsigned.substring(0, e) : unsigned;
		BigInteger exponent = (e >= 0) ? new BigInteger(unsigned.substring(e + 1).replace("+", "")) : BigInteger.ZERO;
		int dot = mantissa.indexOf('.');
		String digits = (dot >= 0) ? mantissa.substring(0, dot) + mantissa.substring(dot + 1) : mantissa;
		if (dot >= 0) {
			exponent = exponent.subtract(BigInteger.valueOf(mantissa.length() - dot - 1));
		}
		String stripped = digits.replaceFirst("^0+", "");
		if (stripped.isEmpty()) {
			return "0";
		}
		int end = stripped.length();
		while (stripped.charAt(end - 1) == '0') {
			end--;
		}
		exponent = exponent.add(BigInteger.valueOf(stripped.length() - end));
		return (negative ? "-" : "") + stripped.substring(0, end) + "E" + exponent;
	}

}
