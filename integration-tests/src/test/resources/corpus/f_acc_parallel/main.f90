! Fortran OpenACC: parallel loop with explicit gang/worker/vector sizes and a reduction.
program f_acc_parallel
  implicit none
  integer, parameter :: n = 8192
  integer :: i
  integer(8) :: s
  integer :: a(n)
  s = 0
  !$acc parallel num_gangs(32) num_workers(4) vector_length(32) copyout(a)
  !$acc loop gang worker vector
  do i = 1, n
    a(i) = mod(i * 7, 113)
  end do
  !$acc end parallel
  !$acc parallel loop reduction(+:s) copyin(a)
  do i = 1, n
    s = s + a(i)
  end do
  write (*, '(a,i0,a,i0)') 'sum=', s, ' a100=', a(100)
end program f_acc_parallel
