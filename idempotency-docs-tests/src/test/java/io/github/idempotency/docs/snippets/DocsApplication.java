package io.github.idempotency.docs.snippets;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * The application the documentation's snippets make up, on an embedded H2 database: its classes
 * are the code the snippets are held to.
 */
@SpringBootApplication
public class DocsApplication {

}
