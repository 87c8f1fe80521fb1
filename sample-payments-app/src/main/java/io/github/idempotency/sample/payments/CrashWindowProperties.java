package io.github.idempotency.sample.payments;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Test-only configuration that holds payments of marked customers at the points where a crash
 * matters, so that a crash test can kill the process there; off unless {@code hold} is set.
 *
 * @param hold how long a payment of a customer whose id starts with
 * {@code hold-before-charge-}, {@code hold-after-charge-} or {@code hold-after-settle-} is held
 * at that point; zero, the default, holds nothing
 */
@ConfigurationProperties("sample.crash-windows")
public record CrashWindowProperties(@DefaultValue("0s") Duration hold) {

}
