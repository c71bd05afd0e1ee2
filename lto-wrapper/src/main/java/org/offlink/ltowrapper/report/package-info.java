/**
 * lto-wrapper's link report ({@code OFFLINK_REPORT=file}): {@link
 * org.offlink.ltowrapper.report.LinkRecorder} collects what a run did, {@link
 * org.offlink.ltowrapper.report.LinkReportWriter} writes it as JSON or binary protobuf. The schema
 * is {@code src/main/proto/link_report.proto}; its Java classes ({@code
 * org.offlink.ltowrapper.report.proto}) are generated at build time.
 */
package org.offlink.ltowrapper.report;
