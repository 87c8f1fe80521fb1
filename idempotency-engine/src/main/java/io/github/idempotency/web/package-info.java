/**
 * What the Spring MVC and Spring WebFlux entry points share: the HTTP properties, the stored
 * headers and the problems the starter answers.
 */
@NullMarked
package io.github.idempotency.web;

import org.jspecify.annotations.NullMarked;
