/*
 * kbench-tiny: the program proc.exec and proc.shell start.  It does nothing
 * but exit with a status the benchmark checks, so the figure is the cost of
 * creating and starting a process image, not of the program.  Built static
 * where the C library allows, so the dynamic loader is not measured.
 */
#define KB_TINY_STATUS 42

int main(void)
{
	return KB_TINY_STATUS;
}
