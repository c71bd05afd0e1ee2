! Fortran OpenACC: kernels regions inside a data region.
program f_acc_kernels
  implicit none
  integer, parameter :: n = 1000
  integer :: i
  real(8) :: a(n), b(n), s
  a = 1.0d0
  s = 0.0d0
  !$acc data copyin(a) create(b) copy(s)
  !$acc kernels
  do i = 1, n
    b(i) = a(i) * i
  end do
  !$acc end kernels
  !$acc kernels
  do i = 1, n
    s = s + b(i)
  end do
  !$acc end kernels
  !$acc end data
  write (*, '(a,f12.1)') 's=', s
end program f_acc_kernels
