/**
 * Logging helpers every module shares: {@link dev.framewire.core.internal.log.RateLimitedLog}, which
 * turns a warning repeated many times a second into one line with a count, and
 * {@link dev.framewire.core.internal.log.Redaction}, the one function that hides the password of a
 * url before it reaches a log line, an error, the journal or a metric. Not API: the module does not
 * export it.
 */
package dev.framewire.core.internal.log;
