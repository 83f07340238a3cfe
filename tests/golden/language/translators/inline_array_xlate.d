/*
 * An inline array may be a translation, as DTrace's fds[] is: each use binds
 * the index to the translator's input, and its members are translated where
 * they are used (a member, or the whole struct assigned).
 */
#pragma D option quiet

typedef struct slot { int index; string name; int twice; } slot_t;

translator slot_t < int *p > {
	index = (int)(((uintptr_t)p - 0x1000) / 8);
	name = (uintptr_t)p == 0x1000 ? "first" : "other";
	twice = (int)(((uintptr_t)p - 0x1000) / 4);
};

inline slot_t slots[int i] = xlate <slot_t> ((int *)(0x1000 + (uint64_t)(uint32_t)i * 8));

BEGIN
{
	n = 3;
	printf("%d %s %d %s\n", slots[0].index, slots[0].name, slots[n].twice, slots[n++].name);
	this->s = slots[n];
	printf("%d %s %d\n", this->s.index, this->s.name, slots[-1].index);
	exit(0);
}
