package org.offlink.ltowrapper.cache;

/**
 * What one {@link BazelHttpCache} did so far, for the link report.
 *
 * @param hits gets that returned an entry
 * @param misses gets that returned nothing: not on the server, a failure, or not asked because the
 *     server was found unreachable earlier
 * @param bytesDownloaded response body bytes of successful GETs (entries and blobs)
 * @param bytesUploaded request body bytes of successful PUTs
 * @param unreachable the server failed at the connection level and is no longer asked
 */
public record RemoteCacheStats(
    long hits, long misses, long bytesDownloaded, long bytesUploaded, boolean unreachable) {}
