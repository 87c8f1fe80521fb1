package io.github.idempotency.jdbc;

import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

import org.jspecify.annotations.Nullable;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The columns of the starter's tables that its statements rely on, as its migrations create them,
 * and where a database's tables fall short of them: a missing table or column, another type, a
 * shorter length, or {@code NOT NULL} where the store leaves a column empty.
 */
final class IdempotencyColumns {

	/**
	 * Length from which a column counts as unbounded: H2's largest, below PostgreSQL's and
	 * MariaDB's.
	 */
	private static final long UNBOUNDED = 1_000_000_000L;

	private static final List<Table> TABLES = List.of(
			new Table("idempotency_record",
					List.of(key("tenant_id"), key("operation"), key("idempotency_key"),
							required("status", Type.characters(16)),
							required("request_fingerprint", Type.characters(64)),
							required("fencing_token", Type.UUID), optional("locked_until", Type.TIMESTAMP),
							required("created_at", Type.TIMESTAMP), optional("completed_at", Type.TIMESTAMP),
							required("expires_at", Type.TIMESTAMP), optional("response_status", Type.INTEGER),
							optional("response_headers", Type.TEXT), optional("response_body", Type.BINARY),
							required("attempts", Type.INTEGER), optional("last_failure", Type.characters(255)),
							optional("last_failure_at", Type.TIMESTAMP))),
			new Table("idempotency_record_archive",
					List.of(required("archive_id", Type.BIGINT), key("tenant_id"), key("operation"),
							key("idempotency_key"), required("status", Type.characters(16)),
							required("request_fingerprint", Type.characters(64)), required("fencing_token", Type.UUID),
							required("created_at", Type.TIMESTAMP), optional("completed_at", Type.TIMESTAMP),
							required("expires_at", Type.TIMESTAMP), optional("response_status", Type.INTEGER),
							optional("response_headers", Type.TEXT), optional("response_body", Type.BINARY),
							required("archived_at", Type.TIMESTAMP))),
			new Table("idempotency_sequence",
					List.of(key("tenant_id"), key("scope"), required("highest_sequence", Type.BIGINT),
							required("updated_at", Type.TIMESTAMP), required("expires_at", Type.TIMESTAMP))),
			new Table("idempotency_reference",
					List.of(key("tenant_id"), key("operation"), key("idempotency_key"),
							required("reference_name", Type.characters(64)), key("reference_value"),
							required("created_at", Type.TIMESTAMP), required("expires_at", Type.TIMESTAMP),
							required("reference_id", Type.SHA256))),
			new Table("idempotency_reference_archive",
					List.of(required("archive_id", Type.BIGINT), key("tenant_id"), key("operation"),
							key("idempotency_key"), required("reference_name", Type.characters(64)),
							key("reference_value"), required("created_at", Type.TIMESTAMP),
							required("archived_at", Type.TIMESTAMP))));

	private IdempotencyColumns() {
	}

	/**
	 * Find where the starter's tables, as the database resolves their names for the store's
	 * statements, fall short of what the statements rely on.
	 * @param jdbc access to the database
	 * @param platform its platform
	 * @return the shortfalls, none if the tables are as the starter's migrations create them
	 * @throws org.springframework.dao.DataAccessException if the database cannot be read
	 */
	public static List<Shortfall> shortfalls(JdbcTemplate jdbc, DatabasePlatform platform) {
		List<Shortfall> shortfalls = new ArrayList<>();
		for (Table table : TABLES) {
			Map<String, Found> found;
			try {
				found = jdbc.query("SELECT * FROM " + table.name() + " WHERE 1 = 0", IdempotencyColumns::describe);
			}
			catch (BadSqlGrammarException ex) {
				shortfalls.add(new Shortfall(table.name(), "does not exist", null));
				continue;
			}
			for (Column column : table.columns()) {
				Shortfall shortfall = column.check(table.name(), (found != null) ? found.get(column.name()) : null,
						platform);
				if (shortfall != null) {
					shortfalls.add(shortfall);
				}
			}
		}
		return shortfalls;
	}

	private static Map<String, Found> describe(java.sql.ResultSet resultSet) throws SQLException {
		ResultSetMetaData metaData = resultSet.getMetaData();
		Map<String, Found> columns = new HashMap<>();
		for (int i = 1; i <= metaData.getColumnCount(); i++) {
			columns.put(metaData.getColumnName(i).toLowerCase(Locale.ROOT), new Found(metaData.getColumnTypeName(i),
					metaData.getPrecision(i), metaData.isNullable(i) == ResultSetMetaData.columnNoNulls));
		}
		return columns;
	}

	private static Column key(String name) {
		return required(name, Type.characters(255));
	}

	private static Column required(String name, Type type) {
		return new Column(name, type, false);
	}

	private static Column optional(String name, Type type) {
		return new Column(name, type, true);
	}

	/**
	 * Where one of the starter's tables or columns falls short of what its statements rely on.
	 *
	 * @param subject the table, or the column as {@code table.column}
	 * @param problem what is wrong, such as {@code is varchar(255), not TEXT}
	 * @param repair the statement that repairs it, or {@code null} where the shipped script has
	 * what is missing
	 */
	public record Shortfall(String subject, String problem, @Nullable String repair) {

		@Override
		public String toString() {
			return this.subject + " " + this.problem;
		}

	}

	private record Table(String name, List<Column> columns) {

	}

	private record Found(String typeName, long length, boolean notNull) {

		String describe(Type type) {
			return (type.hasLength() && this.length > 0 && this.length < UNBOUNDED)
					? this.typeName + "(" + this.length + ")"
					: this.typeName;
		}

	}

	private record Column(String name, Type type, boolean nullable) {

		@Nullable Shortfall check(String table, @Nullable Found found, DatabasePlatform platform) {
			String subject = table + "." + this.name;
			Spelling spelling = this.type.spelling(platform);
			if (spelling == null) {
				return null;
			}
			if (found == null) {
				return new Shortfall(subject, "does not exist", null);
			}
			// Some drivers tell no length for their largest types (MariaDB's LONGTEXT and LONGBLOB),
			// whose names then tell it.
			if (!spelling.typeNames().contains(found.typeName().toUpperCase(Locale.ROOT))
					|| (found.length() > 0 && found.length() < this.type.length())) {
				return new Shortfall(subject, "is " + found.describe(this.type) + ", not " + spelling.declaration(),
						repair(platform, table, spelling.declaration(), this.nullable));
			}
			if (this.nullable && found.notNull()) {
				return new Shortfall(subject, "is NOT NULL, but the store leaves it empty",
						(platform == DatabasePlatform.MARIADB) ? repair(platform, table, spelling.declaration(), true)
								: "ALTER TABLE " + table + " ALTER COLUMN " + this.name + " DROP NOT NULL");
			}
			return null;
		}

		private String repair(DatabasePlatform platform, String table, String declaration, boolean nullable) {
			if (platform == DatabasePlatform.MARIADB) {
				return "ALTER TABLE " + table + " MODIFY COLUMN " + this.name + " " + declaration
						+ (nullable ? " NULL" : " NOT NULL");
			}
			return "ALTER TABLE " + table + " ALTER COLUMN " + this.name + " SET DATA TYPE " + declaration;
		}

	}

	/**
	 * How one database names a column type: the names its driver reports, and how the
	 * migrations declare it.
	 */
	private record Spelling(Set<String> typeNames, String declaration) {

	}

	/**
	 * A column type of the migrations, with the type names each database reports for it.
	 */
	private record Type(long length, Map<DatabasePlatform, Spelling> spellings) {

		static final Type TEXT = new Type(UNBOUNDED,
				Map.of(DatabasePlatform.POSTGRESQL, new Spelling(Set.of("TEXT", "VARCHAR"), "TEXT"),
						DatabasePlatform.MARIADB, new Spelling(Set.of("LONGTEXT"), "LONGTEXT"), DatabasePlatform.H2,
						new Spelling(Set.of("CHARACTER VARYING"), "CHARACTER VARYING")));

		static final Type BINARY = new Type(UNBOUNDED,
				Map.of(DatabasePlatform.POSTGRESQL, new Spelling(Set.of("BYTEA"), "BYTEA"), DatabasePlatform.MARIADB,
						new Spelling(Set.of("LONGBLOB"), "LONGBLOB"), DatabasePlatform.H2,
						new Spelling(Set.of("BINARY VARYING"), "VARBINARY")));

		static final Type UUID = fixed(new Spelling(Set.of("UUID"), "UUID"),
				new Spelling(Set.of("CHAR"), "CHAR(36) CHARACTER SET ascii COLLATE ascii_bin"),
				new Spelling(Set.of("UUID"), "UUID"));

		static final Type TIMESTAMP = fixed(new Spelling(Set.of("TIMESTAMPTZ"), "TIMESTAMP WITH TIME ZONE"),
				new Spelling(Set.of("DATETIME"), "DATETIME(6)"),
				new Spelling(Set.of("TIMESTAMP WITH TIME ZONE"), "TIMESTAMP WITH TIME ZONE"));

		// PostgreSQL names identity columns serial and bigserial.
		static final Type INTEGER = fixed(new Spelling(Set.of("INT4", "INT8", "SERIAL", "BIGSERIAL"), "INTEGER"),
				new Spelling(Set.of("INTEGER", "BIGINT"), "INTEGER"),
				new Spelling(Set.of("INTEGER", "BIGINT"), "INTEGER"));

		// MariaDB keys a reference by the SHA-256 of its columns, too long together for a key.
		static final Type SHA256 = new Type(0,
				Map.of(DatabasePlatform.MARIADB, new Spelling(Set.of("BINARY"), "BINARY(32)")));

		static final Type BIGINT = fixed(new Spelling(Set.of("INT8", "BIGSERIAL"), "BIGINT"),
				new Spelling(Set.of("BIGINT"), "BIGINT"), new Spelling(Set.of("BIGINT"), "BIGINT"));

		static Type characters(int length) {
			String declaration = "VARCHAR(" + length + ")";
			return new Type(length,
					Map.of(DatabasePlatform.POSTGRESQL, new Spelling(Set.of("VARCHAR", "TEXT"), declaration),
							DatabasePlatform.MARIADB, new Spelling(Set.of("VARCHAR"), declaration),
							DatabasePlatform.H2, new Spelling(Set.of("CHARACTER VARYING"), declaration)));
		}

		private static Type fixed(Spelling postgresql, Spelling mariadb, Spelling h2) {
			return new Type(0, Map.of(DatabasePlatform.POSTGRESQL, postgresql, DatabasePlatform.MARIADB, mariadb,
					DatabasePlatform.H2, h2));
		}

		boolean hasLength() {
			return this.length > 0;
		}

		/**
		 * Return how a database spells this type, or {@code null} where its tables have no such
		 * column.
		 */
		@Nullable Spelling spelling(DatabasePlatform platform) {
			return this.spellings.get(platform);
		}

	}

}
