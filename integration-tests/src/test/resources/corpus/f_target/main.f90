! Fortran OpenMP: target teams distribute parallel do with a reduction, and a target region.
program f_target
  implicit none
  integer, parameter :: n = 5000
  integer :: i
  integer(8) :: total
  real(8) :: x(n), y(n)
  do i = 1, n
    x(i) = mod(i, 17)
  end do
  total = 0
  !$omp target teams distribute parallel do map(to: x) map(from: y)
  do i = 1, n
    y(i) = 3.0d0 * x(i) + 1.0d0
  end do
  !$omp end target teams distribute parallel do
  !$omp target teams distribute parallel do map(to: y) reduction(+: total)
  do i = 1, n
    total = total + int(y(i), 8)
  end do
  !$omp end target teams distribute parallel do
  !$omp target map(tofrom: x)
  x(1) = 1000.0d0
  !$omp end target
  write (*, '(a,i0,a,f8.1)') 'total=', total, ' x1=', x(1)
end program f_target
