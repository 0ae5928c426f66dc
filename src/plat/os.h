/*
 * What each platform file (linux.c, posix.c) gives the OS-independent part
 * of src/plat/: the default of a row of the system call table (inject.c)
 * that is a different call on every OS.  Private to src/plat/.
 */
#ifndef KB_PLAT_OS_H
#define KB_PLAT_OS_H

/*
 * Restrict the calling process to one CPU (sched_setaffinity on Linux):
 * 0, or -1 with errno (ENOSYS where the OS has no affinity).
 */
int plat_os_pin_cpu(int cpu);
/*
 * Put the calling process under the real-time FIFO policy at priority
 * prio (sched_setscheduler on Linux): 0, or -1 with errno (EPERM without
 * the right to, ENOSYS where the OS has no such policy).
 */
int plat_os_rt_enter(int prio);

#endif
