#!/usr/sbin/dtrace -q -x strsize=2048 -s
/*
 * json() over a document larger than the default strsize, with nested
 * objects and arrays skipped on the way and one returned whole.
 */
BEGIN
{
	doc = "{\"k0\": {\"v\": [0, {\"w\": \"s\"}]}, \"k1\": {\"v\": [1, {\"w\": \"s\"}]}, \"k2\": {\"v\": [2, {\"w\": \"s\"}]}, \"k3\": {\"v\": [3, {\"w\": \"s\"}]}, \"k4\": {\"v\": [4, {\"w\": \"s\"}]}, \"k5\": {\"v\": [5, {\"w\": \"s\"}]}, \"k6\": {\"v\": [6, {\"w\": \"s\"}]}, \"k7\": {\"v\": [7, {\"w\": \"s\"}]}, \"k8\": {\"v\": [8, {\"w\": \"s\"}]}, \"k9\": {\"v\": [9, {\"w\": \"s\"}]}, \"last\": {\"v\": [10, {\"w\": \"found\", \"deep\": [[[[1]]]]}]}}";
	printf("%d\n", strlen(doc));
	printf("%s\n", json(doc, "last.v[1].w"));
	printf("%s\n", json(doc, "last.v[1].deep"));
	printf("%s\n", json(doc, "k3"));
	exit(0);
}
