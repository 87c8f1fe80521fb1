package io.github.idempotency.sample.gateway;

import java.net.URI;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings of the payment gateway: the fake one in this process, or an external one reached over
 * HTTP.
 *
 * @param latency how long every call of the fake gateway takes before anything is charged
 * @param poolSize connections of the fake gateway's own pool: as an external system it never
 * shares the application's connections
 * @param url the base URL of an external gateway ({@code POST <url>/charges}, see
 * {@link HttpGatewayClient}); unset, the fake gateway in this process charges
 * @param connectTimeout how long to wait for a connection to the external gateway
 * @param readTimeout how long to wait for the external gateway's answer; well above its longest
 * call, since a charge that outlives it is reported as not made
 */
@ConfigurationProperties("sample.gateway")
public record GatewayProperties(@DefaultValue("0s") Duration latency, @DefaultValue("8") int poolSize,
		URI url, @DefaultValue("1s") Duration connectTimeout, @DefaultValue("10s") Duration readTimeout) {

}
